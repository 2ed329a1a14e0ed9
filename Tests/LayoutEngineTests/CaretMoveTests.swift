import Foundation
import Testing
@testable import LayoutEngine

@Suite struct CaretMoveTests {
    /// The primary caret's x of a position.
    static func x(_ tester: HitTester, _ position: TextPosition) -> Double { tester.caret(position)!.primary.x }

    @Test func logicalMovesStepOverWholeClusters() throws {
        let text = "e\u{301}👍🏽a"
        let tester = HitTester(layout: try Fixtures.layout(text), text: text)
        var position = TextPosition(offset: 0), visited = [0]
        while position.offset < text.utf16.count {
            position = tester.moved(position, .forward)
            visited.append(position.offset)
        }
        #expect(visited == [0, 2, 6, 7])
        #expect(tester.moved(TextPosition(offset: 6), .backward).offset == 2)
        #expect(tester.moved(TextPosition(offset: 0), .backward).offset == 0)
    }

    /// In left-to-right text a visual move right is a logical move forward.
    @Test func inLeftToRightTextRightIsForward() throws {
        let text = "plain words wrap onto lines"
        let layout = try Fixtures.layout(text, width: 90)
        let tester = HitTester(layout: layout, text: text)
        var position = TextPosition(offset: 0)
        for _ in 0..<200 {
            let next = tester.moved(position, .right)
            if next == position { break }
            #expect(next.offset > position.offset || (next.offset == position.offset && next.affinity != position.affinity))
            position = next
        }
        #expect(position.offset == text.utf16.count)
    }

    /// Moving right across a line of mixed text visits every caret place once, left to right,
    /// and the Arabic word letter by letter the way it is drawn (its offsets descending).
    @Test func rightCrossesAnArabicWordTheWayItIsDrawn() throws {
        let text = "Say مرحبا now"
        let tester = HitTester(layout: try Fixtures.layout(text, width: 400), text: text)
        var position = TextPosition(offset: 0)
        var xs = [Self.x(tester, position)], offsets = [0]
        while true {
            let next = tester.moved(position, .right)
            if next == position { break }
            position = next
            xs.append(Self.x(tester, position))
            offsets.append(position.offset)
        }
        #expect(xs == xs.sorted(), "every step goes right")
        #expect(Set(offsets) == Set(0...text.utf16.count), "every offset is visited: \(offsets)")
        // Inside the Arabic word the offsets run backwards.
        let arabic = offsets.drop { $0 != 9 }.prefix(4)
        #expect(Array(arabic) == [9, 8, 7, 6])
        // Left undoes right.
        var back = position
        for _ in 0..<(offsets.count - 1) { back = tester.moved(back, .left) }
        #expect(back.offset == 0)
    }

    @Test func pastALinesEndTheCaretGoesOnToTheNextLine() throws {
        let text = "alpha beta gamma delta"
        let layout = try Fixtures.layout(text, width: 70)
        let tester = HitTester(layout: layout, text: text)
        let endOfFirst = tester.stops(on: 0).last!.position
        let next = tester.moved(endOfFirst, .right)
        #expect(tester.caret(next)?.line == 1)
        #expect(tester.moved(next, .left) == endOfFirst)
    }
}
