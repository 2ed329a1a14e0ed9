import Foundation
import Testing
@testable import LayoutEngine
import LayoutUnicode

/// Reused arrays must never carry one layout into the next.
@Suite struct LayoutScratchTests {
    static let texts = [
        "A short caption",
        "A much longer caption that wraps over several lines, with a hard break\nand a second paragraph after it that goes on",
        "مرحبا بالعالم 123 hello",
        "Hi 👋🏽",
        "",
        "x",
    ]

    static func layout(_ text: String, _ layouter: ParagraphLayouter) throws -> ([LineLayout], [GlyphRunLayout]) {
        let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 20)),
                                       width: 160, maxLines: 3)
        let layout = try layouter.layout(request)
        return (layout.lines, layout.runs)
    }

    @Test func layoutsInAnyOrderEqualFreshOnes() throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let fresh = try Self.texts.map { try Self.layout($0, layouter) }
        // Every text after every other: long after short, short after long, empty in between.
        for _ in 0..<3 {
            for (index, text) in Self.texts.enumerated().reversed() {
                let again = try Self.layout(text, layouter)
                #expect(again.0 == fresh[index].0)
                #expect(again.1 == fresh[index].1)
            }
        }
    }

    /// The scratch keeps the last text's resolved styles: a layout in other styles, or against
    /// another font set, must not take them.
    @Test func stylesResolvedForOneTextServeOnlyTheSameStyles() throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let styles = [TextStyle(family: "Noto Sans", size: 20), TextStyle(family: "Noto Sans", size: 31),
                      TextStyle(family: "Noto Sans", weight: 700, size: 20), TextStyle(family: "Noto Serif", size: 20),
                      TextStyle(family: "Noto Sans", size: 20, letterSpacing: 3)]
        func laidOut(_ style: TextStyle, _ layouter: ParagraphLayouter) throws -> [GlyphRunLayout] {
            try layouter.layout(ParagraphRequest(text: AttributedText("Styles in a row", style: style), width: 400)).runs
        }
        let fresh = try styles.map { try laidOut($0, ParagraphLayouter(fonts: Fixtures.registry, cache: nil)) }
        for _ in 0..<2 {
            for (index, style) in styles.enumerated() { #expect(try laidOut(style, layouter) == fresh[index]) }
        }
        // Styles found valid are remembered; others are still checked, before and after.
        for invalid in [TextStyle(family: "Noto Sans", size: -1), TextStyle(family: "No Such Family", size: 20),
                        TextStyle(family: "Noto Sans", weight: 5_000, size: 20)] {
            #expect(throws: LayoutError.self) { try laidOut(invalid, layouter) }
            #expect(try laidOut(styles[0], layouter) == fresh[0])
            #expect(throws: LayoutError.self) { try laidOut(invalid, layouter) }
        }
        // The same styles against another registry: its own fonts, not the memo's.
        let other = try FontRegistry.load(paths: ["/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"])
        let otherRuns = try laidOut(styles[0], ParagraphLayouter(fonts: other, cache: nil))
        #expect(otherRuns.map(\.glyphs) == fresh[0].map(\.glyphs))
        #expect(throws: LayoutError.self) { try laidOut(styles[3], ParagraphLayouter(fonts: other, cache: nil)) }
    }

    @Test func concurrentLayoutsEqualSequentialOnes() async throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let expected = try Self.texts.map { try Self.layout($0, layouter) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<200 {
                        let index = (task + round) % Self.texts.count
                        let got = try Self.layout(Self.texts[index], layouter)
                        if got.0 != expected[index].0 || got.1 != expected[index].1 { wrong += 1 }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func takingEmptiesAndKeepsTheStorage() {
        var array = [1, 2, 3]
        array.reserveCapacity(100)
        let capacity = array.capacity
        let taken = array.takeEmptied()
        #expect(taken.isEmpty)
        #expect(taken.capacity == capacity)
        #expect(array.isEmpty)
    }

    /// How the scratch's arrays are taken (moved out of the field, then emptied outside its
    /// access) and `takeEmptied()`, which is written as that call: each returns an empty array
    /// that keeps the field's storage and capacity, and leaves the field empty.
    @Test func movedOutThenEmptiedKeepsTheStorageAndEmptiesTheField() {
        for filled in [[Int](), [7], Array(0..<50)] {
            var field = filled, twin = filled
            field.reserveCapacity(100)
            twin.reserveCapacity(100)
            let storage = field.withUnsafeBufferPointer { $0.baseAddress }
            let (capacity, twinCapacity) = (field.capacity, twin.capacity)
            let emptied = field.movedOut().emptied()
            let taken = twin.takeEmptied()
            #expect(emptied.isEmpty && taken.isEmpty)
            #expect(emptied.capacity == capacity && taken.capacity == twinCapacity)
            #expect(emptied.withUnsafeBufferPointer { $0.baseAddress } == storage)
            #expect(field.isEmpty && twin.isEmpty)
        }
    }

    @Test func aContextThatServedALongTextIsNotKept() {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let small = layouter.contexts.take(layouter: layouter, budget: .unlimited)
        small.longestText = 100
        layouter.contexts.give(small)
        #expect(layouter.contexts.take(layouter: layouter, budget: .unlimited) === small)
        small.longestText = ContextPool.maxUnits + 1
        layouter.contexts.give(small)
        #expect(layouter.contexts.take(layouter: layouter, budget: .unlimited) !== small)
    }

    /// A context given back drops its request's budget for one of its own: not a budget the
    /// next request of another worker holds too (`.unlimited`), whose references every
    /// worker would count on one cache line.
    @Test func aContextKeptHoldsABudgetOfItsOwn() {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        weak var dropped: WorkBudget?
        let (first, second): (LayoutContext, LayoutContext)
        do {
            let budget = WorkBudget()
            dropped = budget
            first = layouter.contexts.take(layouter: layouter, budget: budget)
            second = layouter.contexts.take(layouter: layouter, budget: budget)
            layouter.contexts.give(first)
            layouter.contexts.give(second)
        }
        #expect(dropped == nil, "the request's budget went with its request")
        #expect(first.budget === first.idleBudget && second.budget === second.idleBudget)
        #expect(first.budget !== second.budget && first.budget !== WorkBudget.unlimited)
    }

    @Test func aTextOfManyLinesLeavesFewPieceLists() throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let text = String(repeating: "word ", count: 2_000)
        let layout = try layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans")),
                                                          width: 10))
        #expect(layout.lines.count > LayoutScratch.maxPieceLists)
        // The context just given back is the next one taken (on this thread, nothing runs between).
        let context = layouter.contexts.take(layouter: layouter, budget: .unlimited)
        defer { layouter.contexts.give(context) }
        #expect(context.scratch.pieceLists.count <= LayoutScratch.maxPieceLists)
    }

    @Test func aParagraphSomeoneKeepsStaysWholeWhenItsRequestEnds() throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let context = LayoutContext(layouter: layouter)
        let text = AttributedText("Kept for an edit, مرحبا", style: TextStyle(family: "Noto Sans", size: 20))
        var shaped = try layouter.shape(text, direction: .auto, context: context)
        let kept = shaped  // an editing session's copy
        shaped.recycle(into: context)
        #expect(kept.paragraphs[0].items.count > 1 && kept.paragraphs[0].prefix.count == text.units.count + 1)
        // A later request lays it out at another width, with its own context.
        let later = LayoutContext(layouter: layouter)
        let layout = try TextPositioner(shaped: kept, request: ParagraphRequest(text: text, width: 120), context: later).run()
        #expect(layout.lines.count >= 2)
        #expect(layout.runs == (try layouter.layout(ParagraphRequest(text: text, width: 120))).runs)
    }

    @Test func aLayoutGivesItsArraysBackToTheScratch() throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        for text in ["One paragraph of text", "Two paragraphs\nof text"] {
            _ = try layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans")), width: 100))
            // The layouter keeps the context it laid the text out with, and the scratch in it.
            let context = layouter.contexts.take(layouter: layouter, budget: .unlimited)
            defer { layouter.contexts.give(context) }
            let scratch = context.scratch
            #expect(scratch.items.capacity > 0 && scratch.runs.capacity > 0 && scratch.prefix.capacity > 0, "\(text)")
            #expect(scratch.flags.capacity > 0 && scratch.levels.capacity > 0, "\(text)")
        }
    }

    /// Contexts go back to the layouter with their scratch, set to each request's budget when
    /// taken again; one that served a text longer than a kept scratch may hold is dropped.
    @Test func theLayouterKeepsContextsButNotALongTextsScratch() throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let style = TextStyle(family: "Noto Sans")
        _ = try layouter.layout(ParagraphRequest(text: AttributedText("A caption", style: style), width: 100))
        let budget = WorkBudget(milliseconds: 5_000)
        let kept = layouter.contexts.take(layouter: layouter, budget: budget)
        #expect(kept.budget === budget && kept.scratch.flags.capacity > 0)
        layouter.contexts.give(kept)
        #expect(kept.budget === kept.idleBudget, "a kept context holds its last request's budget")

        let long = String(repeating: "long text ", count: 2_000)  // 20,000 units, past ContextPool.maxUnits
        _ = try layouter.layout(ParagraphRequest(text: AttributedText(long, style: style), width: 300))
        let next = layouter.contexts.take(layouter: layouter, budget: .unlimited)
        #expect(next.scratch.flags.capacity == 0, "a long text's scratch was kept")
    }

    /// The scratch keeps the last inserted text shaped (a truncation token, a hyphen): layouts
    /// that use it, in any order, with other tokens, styles, directions and writing modes in
    /// between, and with a hyphen and a token in one request, equal a new layouter's.
    @Test func keptTokensLeaveLayoutsAsTheyWere() throws {
        func request(_ text: String, token: String?, size: Double = 16, weight: Int = 400, vertical: Bool = false,
                     hyphenates: Bool = false) -> ParagraphRequest {
            let style = TextStyle(family: "Noto Sans", weight: weight, size: size, language: "en")
            var request = ParagraphRequest(text: AttributedText(text, style: style),
                                           width: vertical ? 90 : 120, height: vertical ? 120 : nil, maxLines: 2, truncationToken: token)
            if vertical { request.writingMode = .verticalRightToLeft }
            if hyphenates { request.hyphenation = Hyphenation() }
            return request
        }
        let long = "Internationalization requires extraordinary responsibility: typography, hyphenation and communication."
        let requests = [
            request(long, token: "…"), request(long, token: "…"), request(long, token: "…", size: 20),
            request(long, token: "…", weight: 700), request(long, token: " [more]"), request("مرحبا بالعالم، نص طويل يقطع في سطرين فقط من فضلك", token: "…"),
            request(String(repeating: "縦書きの文章は上から下へ進みます。", count: 4), token: "続く…", vertical: true),
            request(String(repeating: "縦書きの文章は上から下へ進みます。", count: 4), token: "…", vertical: true),
            request(long, token: "…", hyphenates: true), request(long, token: "…"),
        ]
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        for round in 0..<2 {
            for (index, request) in (round == 0 ? requests : requests.reversed()).enumerated() {
                let kept = try layouter.layout(request)
                let fresh = try ParagraphLayouter(fonts: Fixtures.registry, cache: nil).layout(request)
                #expect(kept.lines.contains { $0.truncated }, "request \(index) truncates")
                #expect(kept.runs == fresh.runs && kept.lines == fresh.lines, "round \(round), request \(index)")
            }
        }
    }

    @Test func zerosAreAppendedPastAPage() {
        var levels: ContiguousArray<UInt8> = [7]
        levels.appendZeros(20_000)  // more than one 16 KiB page of bytes
        #expect(levels.count == 20_001 && levels[0] == 7 && levels.dropFirst().allSatisfy { $0 == 0 })
        var prefix: [Double] = []
        prefix.appendZeros(0)
        #expect(prefix.isEmpty)
        prefix.appendZeros(3_000)  // 24,000 bytes: two pages
        #expect(prefix.count == 3_000 && prefix.allSatisfy { $0 == 0 })
        var flags = ContiguousArray<UnitFlags>()
        flags.appendZeros(5)
        #expect(flags == ContiguousArray(repeating: [], count: 5))
    }
}
