import Foundation
import Testing
@testable import LayoutEngine

/// Text that flows around exclusions, inside shapes and through linked containers, laid out by
/// the engine and held to the geometry: every glyph clear of what it flows around, every line
/// inside the shape it fills, the text in order from fragment to fragment and container to container.
@Suite struct FlowTests {
    static let text = "Text flows around a picture as a river flows around a stone: it parts, runs past on both sides "
        + "and joins again below. Each band of lines is cut into the intervals the shapes leave free, and each "
        + "interval takes as much text as fits, in reading order, before the next band starts below it."

    static func layout(_ flow: TextFlow, text: String = text, size: Double = 16, direction: BaseDirection = .auto,
                       maxLines: Int? = nil, token: String? = "\u{2026}") throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: size)),
                                       width: flow.containers.first?.width ?? 300, direction: direction, maxLines: maxLines,
                                       truncationToken: token)
        request.flow = flow
        return try Fixtures.layouter.layout(request)
    }

    static let picture = Rect(x: 110, y: 40, width: 80, height: 90)

    static func oneBox(_ exclusions: [Exclusion], width: Double = 300, height: Double? = nil) -> TextFlow {
        TextFlow(containers: [TextContainer(width: width, height: height, exclusions: exclusions)])
    }

    /// Every glyph's advance box on the line's band, in layout coordinates.
    static func glyphBoxes(_ layout: ParagraphLayout) -> [(line: Int, box: Rect, cluster: Int)] {
        layout.runs.flatMap { run in
            run.glyphs.map { glyph in
                let line = layout.lines[run.lineIndex]
                return (run.lineIndex, Rect(x: glyph.position.x, y: line.usedRect.y, width: glyph.advance, height: line.usedRect.height),
                        glyph.cluster)
            }
        }
    }

    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        a.x < b.maxX - 1e-6 && b.x < a.maxX - 1e-6 && a.y < b.maxY - 1e-6 && b.y < a.maxY - 1e-6
    }

    /// The lines' ranges follow each other with nothing left out or repeated.
    static func contiguous(_ layout: ParagraphLayout) -> Bool {
        zip(layout.lines, layout.lines.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound }
    }

    @Test func textPartsAroundAnExclusionAndJoinsBelowIt() throws {
        let layout = try Self.layout(Self.oneBox([Exclusion(FlowShape(.rect(Self.picture)), margin: 6)]))
        let clear = Rect(x: Self.picture.x - 6, y: Self.picture.y - 6, width: Self.picture.width + 12, height: Self.picture.height + 12)
        let units = Array(FlowTests.text.utf16)
        // Spaces hanging at a line's end may pass its edge, as CSS lets them; nothing else may.
        for (line, box, cluster) in Self.glyphBoxes(layout) where box.width > 0 && units[cluster] != 0x20 {
            #expect(!Self.overlaps(box, clear), "a glyph of line \(line) at \(box) meets the picture and its margin")
        }
        #expect(Self.contiguous(layout))
        #expect(layout.visibleRange == 0..<Self.text.utf16.count)
        // Bands beside the picture hold two fragments with one top: left first, then right.
        let beside = layout.lines.filter { Self.overlaps($0.fragmentRect!, clear.union(clear)) || $0.usedRect.y < clear.maxY && $0.usedRect.maxY > clear.y }
        #expect(beside.count >= 4)
        for pair in stride(from: 0, to: beside.count - 1, by: 2) {
            let left = beside[pair], right = beside[pair + 1]
            #expect(left.usedRect.y == right.usedRect.y)
            #expect(left.fragmentRect!.maxX <= clear.x + 1e-6 && right.fragmentRect!.x >= clear.maxX - 1e-6)
            #expect(left.range.upperBound == right.range.lowerBound)
        }
        // Above and below the picture a line takes the whole width.
        #expect(layout.lines.first!.fragmentRect == Rect(x: 0, y: 0, width: 300, height: layout.lines.first!.usedRect.height))
        #expect(layout.lines.last!.fragmentRect!.width == 300)
    }

    @Test func eachWrapSideKeepsTheTextWhereItSays() throws {
        let shape = FlowShape(.rect(Rect(x: 60, y: 30, width: 80, height: 80)))  // more room on its right (160) than its left (60)
        func sides(_ wrap: ExclusionWrap, _ direction: BaseDirection = .auto, text: String = Self.text) throws -> (left: Int, right: Int, layout: ParagraphLayout) {
            let layout = try Self.layout(Self.oneBox([Exclusion(shape, wrap: wrap)]), text: text, direction: direction)
            let band = layout.lines.filter { $0.usedRect.y < 110 && $0.usedRect.maxY > 30 }
            return (band.filter { $0.fragmentRect!.maxX <= 60 + 1e-6 }.count, band.filter { $0.fragmentRect!.x >= 140 - 1e-6 }.count, layout)
        }
        let both = try sides(.both), start = try sides(.start), end = try sides(.end), widest = try sides(.widest)
        #expect(both.left > 0 && both.right > 0)
        #expect(start.left > 0 && start.right == 0)
        #expect(end.left == 0 && end.right > 0)
        #expect(widest.left == 0 && widest.right > 0)
        let clear = try sides(.clear)
        #expect(clear.left == 0 && clear.right == 0)
        #expect(!clear.layout.lines.contains { $0.usedRect.y < 110 && $0.usedRect.maxY > 30 })
        // Text ignores a shape whose wrap is none: the same lines as with no exclusion.
        let ignored = try Self.layout(Self.oneBox([Exclusion(shape, wrap: .none)]))
        let plain = try Self.layout(Self.oneBox([]))
        #expect(ignored.lines == plain.lines)
        // In a right-to-left paragraph, start is the right side and text fills the right fragment first.
        let arabic = "النص يلتف حول الصورة كما يلتف النهر حول الحجر، يجري على الجانبين ثم يلتقي تحتها. "
            + "كل سطر يأخذ ما يتسع له من الكلام في المجال الحر، ثم يبدأ السطر التالي تحته."
        let rtlStart = try sides(.start, .rightToLeft, text: arabic)
        #expect(rtlStart.left == 0 && rtlStart.right > 0)
        let rtlBoth = try Self.layout(Self.oneBox([Exclusion(shape, wrap: .both)]), text: arabic, direction: .rightToLeft)
        let pairs = zip(rtlBoth.lines, rtlBoth.lines.dropFirst()).filter { $0.usedRect.y == $1.usedRect.y }
        #expect(!pairs.isEmpty)
        for (first, second) in pairs { #expect(first.fragmentRect!.x > second.fragmentRect!.x) }
    }

    @Test func textFillsTheInsideOfAShapedContainer() throws {
        let circle = Rect(x: 0, y: 0, width: 280, height: 280)
        let inset = 8.0
        let layout = try Self.layout(TextFlow(containers: [
            TextContainer(width: 280, height: 280, shape: FlowShape(.ellipse(circle)), inset: inset)]), size: 14)
        #expect(layout.lines.count > 5)
        #expect(Self.contiguous(layout))
        let r = 140.0 - inset
        func insideCircle(_ x: Double, _ y: Double) -> Bool { hypot(x - 140, y - 140) <= r + FlowShape.flatness + 1e-3 }
        for line in layout.lines {
            let f = line.fragmentRect!
            // The band's four corners are inside the circle shrunk by the inset: the whole band is.
            #expect(insideCircle(f.x, f.y) && insideCircle(f.maxX, f.y) && insideCircle(f.x, f.maxY) && insideCircle(f.maxX, f.maxY),
                    "fragment \(f) leaves the circle")
            #expect(line.usedRect.x >= f.x - 1e-6 && line.usedRect.maxX <= f.maxX + 1e-6)
        }
        // Lines are narrower near the top than through the middle.
        let widths = layout.lines.map { $0.fragmentRect!.width }
        #expect(widths.first! < widths[widths.count / 2])
    }

    @Test func textRunsFromOneContainerToTheNextAndWhatIsLeftIsCut() throws {
        let columns = [TextContainer(origin: Point(x: 0, y: 0), width: 140, height: 100),
                       TextContainer(origin: Point(x: 160, y: 0), width: 140, height: 100)]
        let layout = try Self.layout(TextFlow(containers: columns))
        #expect(layout.containers.count == 2)
        let first = layout.containers[0], second = layout.containers[1]
        #expect(first.range.lowerBound == 0 && first.range.upperBound == second.range.lowerBound)
        #expect(second.range.upperBound == layout.visibleRange.upperBound)
        #expect(layout.visibleRange.upperBound < Self.text.utf16.count)  // two short columns do not hold it all
        for (index, container) in layout.containers.enumerated() {
            for line in layout.lines[container.lines] {
                #expect(line.container == index)
                #expect(line.usedRect.x >= container.rect.x - 1e-6 && line.usedRect.maxX <= container.rect.maxX + 1e-6)
                #expect(line.usedRect.y >= container.rect.y - 1e-6 && line.usedRect.maxY <= container.rect.maxY + 1e-6)
            }
        }
        // The last line shown ends with the token for what did not fit.
        #expect(layout.lines.last!.truncated)
        #expect(layout.runs.contains { $0.isTruncationToken })
        #expect(layout.size == Size(width: 300, height: 100))
        // Without a token the text is clipped: no token run, the lines end at a break.
        let clipped = try Self.layout(TextFlow(containers: columns), token: nil)
        #expect(!clipped.runs.contains { $0.isTruncationToken })
        // A third container of unlimited height takes the rest.
        let all = try Self.layout(TextFlow(containers: columns + [TextContainer(origin: Point(x: 320, y: 0), width: 140)]))
        #expect(all.visibleRange == 0..<Self.text.utf16.count)
        #expect(!all.lines.contains { $0.truncated })
        #expect(Self.contiguous(all))
    }

    @Test func linesStayBelowMaxLinesAcrossContainers() throws {
        let columns = [TextContainer(width: 140, height: 60), TextContainer(origin: Point(x: 160, y: 0), width: 140, height: 600)]
        let layout = try Self.layout(TextFlow(containers: columns), maxLines: 5)
        #expect(layout.lines.count == 5)
        #expect(layout.lines.last!.truncated)
    }

    @Test func verticalAlignmentInABoxMovesOrSpreadsTheLines() throws {
        let short = "A short note, centred in its box."
        func lines(_ alignment: VerticalAlignment) throws -> [LineLayout] {
            try Self.layout(TextFlow(containers: [TextContainer(width: 120, height: 300)], verticalAlignment: alignment), text: short).lines
        }
        let top = try lines(.top), center = try lines(.center), bottom = try lines(.bottom), spread = try lines(.justifyLines)
        #expect(top.count >= 2)
        let used = top.last!.usedRect.maxY
        #expect(abs(center.first!.usedRect.y - (300 - used) / 2) < 1e-9)
        #expect(abs(bottom.last!.usedRect.maxY - 300) < 1e-9)
        #expect(abs(spread.first!.usedRect.y) < 1e-9 && abs(spread.last!.usedRect.maxY - 300) < 1e-9)
        // Moving lines keeps their text and x.
        #expect(zip(top, center).allSatisfy { $0.range == $1.range && $0.usedRect.x == $1.usedRect.x })
    }

    @Test func verticalCentringInACircleBalancesTheSpaceAboveAndBelow() throws {
        let short = "Centred inside a circle, a few words."
        let container = TextContainer(width: 200, height: 200, shape: FlowShape(.ellipse(Rect(x: 0, y: 0, width: 200, height: 200))))
        let top = try Self.layout(TextFlow(containers: [container]), text: short)
        let centred = try Self.layout(TextFlow(containers: [container], verticalAlignment: .center), text: short)
        #expect(centred.visibleRange == top.visibleRange)
        let above = centred.lines.first!.usedRect.y, below = 200 - centred.lines.last!.usedRect.maxY
        #expect(above > top.lines.first!.usedRect.y)
        // Bisection to a hundredth of a point; the space above sits at or just under the space below.
        #expect(above <= below + 1e-9 && below - above < 0.5, "above \(above), below \(below)")
    }

    @Test func slotsNarrowerThanTheMinimumTakeNoText() throws {
        // The picture leaves 10 points on its left.
        let shape = FlowShape(.rect(Rect(x: 10, y: 0, width: 150, height: 60)))
        let narrow = try Self.layout(TextFlow(containers: [TextContainer(width: 300, exclusions: [Exclusion(shape)])],
                                              minimumFragmentWidth: 20))
        #expect(!narrow.lines.contains { $0.fragmentRect!.maxX <= 10 + 1e-6 })
        let allowed = try Self.layout(TextFlow(containers: [TextContainer(width: 300, exclusions: [Exclusion(shape)])],
                                               minimumFragmentWidth: 5))
        #expect(allowed.lines.contains { $0.fragmentRect!.maxX <= 10 + 1e-6 })
    }

    @Test func oneRectangularContainerLaysOutAsAPlainBox() throws {
        let plain = try Fixtures.layout(Self.text, width: 300, size: 16)
        let flowed = try Self.layout(TextFlow(containers: [TextContainer(width: 300)]))
        #expect(flowed.lines.map(\.range) == plain.lines.map(\.range))
        #expect(flowed.lines.map(\.usedRect) == plain.lines.map(\.usedRect))
        #expect(flowed.runs.map(\.glyphs) == plain.runs.map(\.glyphs))
    }

    @Test func aContainerWithNoRoomShowsNothingAndEndsAtOnce() throws {
        // Every interval is narrower than the minimum, and the exclusion covers the box.
        let layout = try Self.layout(TextFlow(containers: [TextContainer(width: 300, height: 10_000, exclusions: [
            Exclusion(FlowShape(.rect(Rect(x: -10, y: -10, width: 400, height: 20_000))))])]))
        #expect(layout.lines.isEmpty)
        #expect(layout.visibleRange == 0..<0)
        #expect(layout.overflowRange == 0..<Self.text.utf16.count, "and says so: all of the text is left over")
        #expect(layout.containers.first?.range == 0..<0)
    }

    @Test func textResumesRightAtTheBottomOfARectAcrossTheColumn() throws {
        // Bands step a quarter line past curves; past a rect they jump to its bottom edge, and
        // however tall it is (a million points cost one step; a quarter line at a time, 250,000).
        for (height, margin) in [(90.0, 0.0), (1_000_000.0, 6.0)] {
            let rect = Rect(x: -5, y: 0, width: 310, height: height)
            let layout = try Self.layout(Self.oneBox([Exclusion(FlowShape(.rect(rect)), margin: margin)]), text: "Below the picture.")
            let first = try #require(layout.lines.first)
            #expect(abs(first.usedRect.y - (height + margin)) < 1e-9, "the first line at \(first.usedRect.y)")
        }
    }

    @Test func aWordTooLongForTheColumnIsCutFromTheLastExclusionsBottomEdge() throws {
        // Beside exclusions a word too long for its interval waits for a wider band; from the
        // lowest exclusion's bottom edge down no band is wider, and the word is cut there, as
        // anywhere below it (documents move text laid out from there as the same text).
        let word = String(repeating: "unbreakable", count: 8)
        let layout = try Self.layout(Self.oneBox([Exclusion(FlowShape(.rect(Rect(x: -5, y: 0, width: 310, height: 100))))]), text: word)
        #expect(layout.lines.count > 1)
        #expect(layout.lines.first?.usedRect.y == 100)
        #expect(layout.visibleRange == 0..<word.utf16.count)
    }

    @Test func aHugeCurvedExclusionIsPassedInBoundedSteps() throws {
        // An ellipse 1,000,000 points tall, wider than the column, centred on its top: bands are
        // tried at 1/1,024 of its height, not every quarter line, and the text starts beside its
        // narrowing end within one such step of the first band with room (where the side left
        // of it reaches one em).
        let (rx, ry, centreX) = (250.0, 500_000.0, 150.0)
        let ellipse = Rect(x: centreX - rx, y: -ry, width: 2 * rx, height: 2 * ry)
        let layout = try Self.layout(Self.oneBox([Exclusion(FlowShape(.ellipse(ellipse)))]), text: "a")
        let first = try #require(layout.lines.first)
        let halfChord = centreX - 16  // the left interval is one em (the minimum fragment) wide
        let opening = ry * (1 - (halfChord / rx) * (halfChord / rx)).squareRoot()
        #expect(first.usedRect.y >= opening - 1e-6)
        #expect(first.usedRect.y <= opening + 2 * ry / FlowRegion.triesPerShape + 4)
    }

    @Test func paragraphsAndAttachmentsFollowTheFragments() throws {
        let text = "First paragraph beside the picture.\nSecond one \u{FFFC} with a box, flowing on past it and below."
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 16)), width: 300,
                                       attachments: [InlineAttachment(width: 12, extent: .height(12))])
        request.flow = Self.oneBox([Exclusion(FlowShape(.rect(Self.picture)))])
        let layout = try Fixtures.layouter.layout(request)
        #expect(Self.contiguous(layout))
        #expect(layout.lines.contains { $0.hardBreak })
        let box = try #require(layout.attachments.first)
        let line = layout.lines[box.lineIndex]
        #expect(box.rect.x >= line.fragmentRect!.x - 1e-6 && box.rect.maxX <= line.fragmentRect!.maxX + 1e-6)
        #expect(!Self.overlaps(box.rect, Self.picture))
    }
}

/// Every kind of shape and fill rule, held to glyph ink (HarfBuzz's extents, not origins or
/// advances), and containers of different sizes tiling the text.
@Suite struct FlowShapeKindTests {
    static let text = FlowTests.text + " " + FlowTests.text

    /// Each glyph's ink box in layout coordinates.
    static func inkBoxes(_ layout: ParagraphLayout) -> [Rect] {
        layout.runs.flatMap { run -> [Rect] in
            guard let font = Fixtures.registry.font(id: run.fontID) else { return [] }
            let scale = font.scale(for: run.size)
            return run.glyphs.compactMap { glyph in
                let ink = font.inkExtents(glyph.id)
                guard ink.width != 0 && ink.height != 0 else { return nil }
                return Rect(x: glyph.position.x + Double(ink.x) * scale, y: glyph.position.y - Double(ink.y) * scale,
                            width: Double(ink.width) * scale, height: -Double(ink.height) * scale)
            }
        }
    }

    /// Points of a rect's edges, a couple of points apart: enough to meet a shape's outline.
    static func samples(_ r: Rect) -> [Point] {
        let n = 6
        return (0...n).flatMap { k -> [Point] in
            let t = Double(k) / Double(n)
            return [Point(x: r.x + t * r.width, y: r.y), Point(x: r.x + t * r.width, y: r.maxY),
                    Point(x: r.x, y: r.y + t * r.height), Point(x: r.maxX, y: r.y + t * r.height),
                    Point(x: r.x + t * r.width, y: r.y + r.height / 2)]
        }
    }

    static let kinds: [(String, FlowShape)] = [
        ("rect", FlowShape(.rect(Rect(x: 90, y: 30, width: 110, height: 70)))),
        ("rounded rect", FlowShape(.roundedRect(Rect(x: 90, y: 30, width: 110, height: 70), radius: 20))),
        ("ellipse", FlowShape(.ellipse(Rect(x: 80, y: 20, width: 130, height: 90)))),
        ("polygon", FlowShape(.polygon([Point(x: 150, y: 10), Point(x: 230, y: 110), Point(x: 70, y: 110)]))),
        ("path", FlowShape(.path(Path([.move(Point(x: 100, y: 20)), .quad(Point(x: 250, y: 60), Point(x: 100, y: 120)),
                                       .line(Point(x: 140, y: 70)), .close])))),
        ("a ring, even-odd", FlowShape(.path(Path([
            .move(Point(x: 60, y: 20)), .line(Point(x: 240, y: 20)), .line(Point(x: 240, y: 160)), .line(Point(x: 60, y: 160)), .close,
            .move(Point(x: 100, y: 60)), .line(Point(x: 200, y: 60)), .line(Point(x: 200, y: 120)), .line(Point(x: 100, y: 120)), .close])),
            fillRule: .evenOdd)),
        ("wider than the column", FlowShape(.rect(Rect(x: -50, y: 40, width: 400, height: 30)))),
    ]

    @Test(arguments: kinds.indices)
    func noGlyphInkMeetsAnExclusionOfAnyKind(_ index: Int) throws {
        let (name, shape) = Self.kinds[index]
        let scanner = ShapeScanner(shape)
        for wrap in [ExclusionWrap.both, .start, .end, .widest, .clear] {
            let layout = try FlowTests.layout(FlowTests.oneBox([Exclusion(shape, margin: 3, wrap: wrap)]), text: Self.text)
            #expect(FlowTests.contiguous(layout) && layout.visibleRange.upperBound == Self.text.utf16.count, "\(name), \(wrap)")
            for box in Self.inkBoxes(layout) {
                // Inside the shape (by its fill rule) at no point of the ink box.
                let meets = Self.samples(box).contains { point in
                    scanner.interior(at: point.y).contains { $0.lower < point.x - 1e-6 && point.x + 1e-6 < $0.upper }
                }
                #expect(!meets, "\(name), \(wrap): ink at \(box) is inside the shape")
            }
        }
    }

    @Test func noGlyphInkLeavesACircle() throws {
        let circle = FlowShape(.ellipse(Rect(x: 0, y: 0, width: 300, height: 300)))
        let layout = try FlowTests.layout(TextFlow(containers: [TextContainer(width: 300, height: 300, shape: circle, inset: 2)]),
                                          text: Self.text, size: 13)
        #expect(layout.lines.count > 8)
        for box in Self.inkBoxes(layout) {
            for point in Self.samples(box) { #expect(hypot(point.x - 150, point.y - 150) <= 150 + 0.1, "ink at \(point) is outside") }
        }
        // Shorter towards the poles.
        let widths = layout.lines.map { $0.fragmentRect!.width }
        #expect(widths.first! < widths.max()! && widths.last! < widths.max()!)
    }

    @Test func containersOfDifferentSizesTileTheText() throws {
        let containers = [TextContainer(origin: Point(x: 0, y: 0), width: 120, height: 80),
                          TextContainer(origin: Point(x: 140, y: 0), width: 200, height: 50,
                                        exclusions: [Exclusion(FlowShape(.ellipse(Rect(x: 60, y: 0, width: 60, height: 40))))]),
                          TextContainer(origin: Point(x: 0, y: 100), width: 340, height: 60),
                          TextContainer(origin: Point(x: 0, y: 180), width: 90, height: 400,
                                        shape: FlowShape(.polygon([Point(x: 0, y: 0), Point(x: 90, y: 0), Point(x: 45, y: 400)])))]
        let layout = try FlowTests.layout(TextFlow(containers: containers), text: Self.text)
        var next = 0
        for container in layout.containers {
            #expect(container.range.lowerBound == next, "container \(container.index) starts where the last ended")
            next = container.range.upperBound
            for line in layout.lines[container.lines] {
                #expect(line.range.lowerBound >= container.range.lowerBound && line.range.upperBound <= max(container.range.upperBound, line.range.lowerBound))
            }
        }
        #expect(next == layout.visibleRange.upperBound)
        #expect(layout.overflowRange == (next < Self.text.utf16.count ? next..<Self.text.utf16.count : 0..<0))
        #expect(layout.containers.filter { !$0.lines.isEmpty }.count >= 3)
    }

    /// An interval beside a shape too narrow for the next word takes no text: no line there
    /// ends inside a word (the first version cut "beside" into "besid" and "e" in a 40-pt gap).
    @Test func narrowIntervalsTakeWholeWordsOrNothing() throws {
        let ellipse = Rect(x: 140, y: 0, width: 120, height: 80)  // leaves 40 pt on its right in a 300-pt box
        let layout = try FlowTests.layout(FlowTests.oneBox([Exclusion(FlowShape(.ellipse(ellipse)))]))
        let units = Array(FlowTests.text.utf16)
        func isLetter(_ u: UInt16) -> Bool { UnitClass.isASCIILetter(UInt32(u)) }
        for line in layout.lines where line.range.upperBound < units.count {
            let end = line.range.upperBound
            #expect(!(isLetter(units[end - 1]) && isLetter(units[end])), "a line ends inside a word at \(end)")
        }
        // Text still goes beside the ellipse where a word fits, and all of it is laid out.
        #expect(layout.lines.contains { $0.usedRect.x >= ellipse.maxX - 1 })
        #expect(layout.visibleRange == 0..<units.count)
        // In a box narrower than a word, below every exclusion, the word is cut as anywhere.
        let narrow = try FlowTests.layout(FlowTests.oneBox([Exclusion(FlowShape(.rect(Rect(x: 0, y: 0, width: 10, height: 10))))], width: 30),
                                     text: "Incomprehensibilities")
        #expect(narrow.lines.count > 1 && narrow.visibleRange == 0..<21)
    }

}
