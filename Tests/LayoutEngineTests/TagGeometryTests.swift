import Testing
@testable import LayoutEngine

/// Image tags: the dot, leader lines, underlines and text placed by hand-computed trigonometry.
@Suite struct TagGeometryTests {
    static let photo = Size(width: 1080, height: 1350)
    static let labelTexts = [("Nike", "Air Max 90"), ("¥899", ""), ("Tokyo", "")]

    /// cos and sin of the default table's angles, written out.
    static let unitVectors: [Double: (cos: Double, sin: Double)] = [
        0: (1, 0), 45: (0.7071067811865476, 0.7071067811865476), 90: (0, 1), 135: (-0.7071067811865476, 0.7071067811865476),
        180: (-1, 0), 225: (-0.7071067811865476, -0.7071067811865476), 270: (0, -1), 315: (0.7071067811865476, -0.7071067811865476),
    ]

    /// The 12 default styles as the issue describes them: right/left × straight/slanted, for 1–3 labels.
    static let expectedAngles: [Int: [[Double]]] = [
        1: [[0], [180], [45], [135]],
        2: [[90, 0], [90, 180], [45, 315], [135, 225]],
        3: [[90, 0, 270], [90, 180, 270], [45, 0, 315], [135, 180, 225]],
    ]

    static func tags(count: Int, style: Int, at point: Point = Point(x: 0.5, y: 0.5)) -> [ImageTag] {
        [ImageTag(position: point, labels: labelTexts.prefix(count).map { TagLabel(name: $0.0, value: $0.1) }, style: style)]
    }

    /// The label's text laid out alone, as the tag stage lays it out.
    static func measured(_ text: String, valueFrom: Int?) throws -> LineLayout {
        let spans = valueFrom.map { [AttributedText.Span(range: $0..<text.utf16.count, patch: StylePatch(weight: 400))] } ?? []
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(weight: 600, size: 13), spans: spans),
                                                                    width: 200, maxLines: 1))
        return layout.lines[0]
    }

    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test(arguments: [1, 2, 3])
    func everyDefaultStyleFollowsTheTrigonometry(_ count: Int) throws {
        for style in 0..<4 {
            let layout = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: Self.tags(count: count, style: style)))
            let tag = layout.tags[0]
            #expect(tag.style == style && tag.inside)
            #expect(tag.dot.center == Point(x: 540, y: 675) && tag.dot.radius == 4 && tag.dot.shadowRadius == 9 && tag.dot.shadowOpacity == 0.3)
            for (index, label) in tag.labels.enumerated() {
                let angle = Self.expectedAngles[count]![style][index]
                let (cos, sin) = Self.unitVectors[angle]!
                let right = angle == 90 || angle == 270 ? style % 2 == 0 : cos > 0 || (cos == 0 && style % 2 == 0)
                #expect(label.angle == angle)
                #expect(label.side == (right ? .right : .left))
                let end = Point(x: 540 + 40 * cos, y: 675 - 40 * sin)
                #expect(Self.near(label.leader.from.x, 540 + 4 * cos) && Self.near(label.leader.from.y, 675 - 4 * sin))
                #expect(Self.near(label.leader.to.x, end.x) && Self.near(label.leader.to.y, end.y))
                let (name, value) = Self.labelTexts[index]
                let text = value.isEmpty ? name : name + " " + value
                let line = try Self.measured(text, valueFrom: value.isEmpty ? nil : name.utf16.count + 1)
                let width = line.width
                #expect(label.text == text)
                #expect(label.underline.from == label.leader.to)
                #expect(Self.near(label.underline.to.x, right ? end.x + width + 8 : end.x - width - 8) && label.underline.to.y == label.underline.from.y)
                #expect(Self.near(label.textRect.x, right ? end.x + 4 : end.x - 4 - width) && Self.near(label.textRect.width, width))
                // The text's descent sits 2 points above the 1-point underline.
                #expect(Self.near(label.textRect.maxY, end.y - 0.5 - 2))
                #expect(Self.near(label.textRect.height, line.ascent + line.descent))
                #expect(Self.near(label.baselineOrigin.y, end.y - 2.5 - line.descent))
                // The glyphs sit on the label's baseline, starting at its left end.
                let glyphs = label.runs.flatMap(\.glyphs)
                #expect(!glyphs.isEmpty && glyphs.allSatisfy { Self.near($0.position.y, label.baselineOrigin.y, 1e-6) })
                #expect(Self.near(glyphs.map(\.position.x).min()!, label.textRect.x, 1e-6))
                #expect(tag.bounds.contains(label.textRect) && tag.bounds.contains(label.underline.bounds(width: 1)))
            }
            #expect(tag.bounds.contains(Rect(x: 531, y: 666, width: 18, height: 18)))
        }
    }

    @Test func proportionalCoordinatesScaleWithThePhoto() throws {
        let small = try Fixtures.layouter.layoutTags(TagsRequest(photo: Size(width: 540, height: 675),
                                                                  tags: Self.tags(count: 1, style: 0, at: Point(x: 0.42, y: 0.61))))
        let large = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: Self.tags(count: 1, style: 0, at: Point(x: 0.42, y: 0.61))))
        #expect(Self.near(small.tags[0].dot.center.x, 226.8) && Self.near(small.tags[0].dot.center.y, 411.75))
        #expect(Self.near(large.tags[0].dot.center.x, 453.6) && Self.near(large.tags[0].dot.center.y, 823.5))
    }

    /// A tag dragged past the photo's right edge and above its top: refused as it is, drawn at the
    /// photo's top-right corner when the request clamps, and said to be moved.
    @Test func aTagPastTheEdgeIsClampedOntoThePhoto() throws {
        var request = TagsRequest(photo: Self.photo, tags: Self.tags(count: 1, style: 0, at: Point(x: 1.2, y: -0.1))
            + Self.tags(count: 1, style: 0, at: Point(x: 0.3, y: 0.4)))
        do {
            _ = try Fixtures.layouter.layoutTags(request)
            Issue.record("a point off the photo was taken")
        } catch let error as LayoutError {
            #expect(error.field == "tags[0].at.x")
        }
        request.clampsToPhoto = true
        let placed = try Fixtures.layouter.layoutTags(request)
        #expect(placed.tags[0].position == Point(x: 1, y: 0) && placed.tags[0].clamped)
        #expect(placed.tags[0].dot.center == Point(x: 1080, y: 0))
        #expect(placed.tags[1].position == Point(x: 0.3, y: 0.4) && !placed.tags[1].clamped)
        // Not a number is still refused.
        request.tags[0].position = Point(x: .nan, y: 0.5)
        #expect(throws: LayoutError.self) { try Fixtures.layouter.layoutTags(request) }
    }

    @Test func arabicAndChineseLabelsAreLaidOutAsText() throws {
        let tags = [ImageTag(position: Point(x: 0.3, y: 0.4), labels: [TagLabel(name: "قهوة", value: "٢٥ ريال"), TagLabel(name: "咖啡店", value: "¥38")], style: 2)]
        let layout = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: tags))
        let arabic = layout.tags[0].labels[0], chinese = layout.tags[0].labels[1]
        #expect(arabic.runs.contains { $0.bidiLevel % 2 == 1 })
        #expect(arabic.runs.allSatisfy { Fixtures.family(of: $0).contains("Arabic") || Fixtures.family(of: $0) == "Noto Sans" })
        #expect(chinese.runs.contains { Fixtures.family(of: $0).contains("CJK") })
        #expect(arabic.runs.flatMap(\.glyphs).allSatisfy { $0.id != 0 } && chinese.runs.flatMap(\.glyphs).allSatisfy { $0.id != 0 })
    }

    @Test func aLongLabelIsCutWithAnEllipsis() throws {
        var request = TagsRequest(photo: Self.photo, tags: [ImageTag(position: Point(x: 0.1, y: 0.5),
            labels: [TagLabel(name: String(repeating: "Limited edition ", count: 10))])])
        request.metrics.maxLabelWidth = 120
        let label = try Fixtures.layouter.layoutTags(request).tags[0].labels[0]
        #expect(label.truncated && label.textRect.width <= 120)
    }

    // MARK: keep inside

    struct Edge: CustomTestStringConvertible, Sendable {
        var name: String
        var at: Point
        var count: Int
        var style: Int
        /// The nearest style that keeps the labels on the photo; nil when none does.
        var expected: Int?
        var testDescription: String { name }
    }

    static let edges: [Edge] = [
        Edge(name: "right edge: mirrored to the left", at: Point(x: 0.98, y: 0.5), count: 1, style: 0, expected: 1),
        Edge(name: "left edge: mirrored to the right", at: Point(x: 0.02, y: 0.5), count: 1, style: 3, expected: 2),
        Edge(name: "top edge: slanted becomes straight", at: Point(x: 0.5, y: 0.02), count: 1, style: 2, expected: 0),
        Edge(name: "bottom edge: slanted becomes straight", at: Point(x: 0.5, y: 0.99), count: 2, style: 2, expected: 0),
        Edge(name: "bottom edge: every style has a label below", at: Point(x: 0.5, y: 0.99), count: 3, style: 0, expected: nil),
        Edge(name: "top-right corner: both changed", at: Point(x: 0.98, y: 0.02), count: 1, style: 2, expected: 1),
        Edge(name: "top-left corner", at: Point(x: 0.02, y: 0.02), count: 1, style: 3, expected: 0),
        Edge(name: "bottom-left corner", at: Point(x: 0.02, y: 0.99), count: 1, style: 3, expected: 2),
        Edge(name: "bottom-right corner", at: Point(x: 0.98, y: 0.99), count: 1, style: 0, expected: 1),
        Edge(name: "three labels at the left edge", at: Point(x: 0.01, y: 0.5), count: 3, style: 1, expected: 0),
        Edge(name: "inside already: kept", at: Point(x: 0.5, y: 0.5), count: 3, style: 3, expected: 3),
    ]

    @Test(arguments: edges)
    func keepInsideOffersTheNearestStyleThatFits(_ edge: Edge) throws {
        let photoRect = Rect(x: 0, y: 0, width: 1080, height: 1350)
        for keepInside in [false, true] {
            var request = TagsRequest(photo: Self.photo, tags: Self.tags(count: edge.count, style: edge.style, at: edge.at))
            request.keepInside = keepInside
            let tag = try Fixtures.layouter.layoutTags(request).tags[0]
            #expect(tag.insideStyle == edge.expected)
            #expect(tag.requestedStyle == edge.style)
            let drawn = keepInside ? (edge.expected ?? edge.style) : edge.style
            #expect(tag.style == drawn)
            #expect(tag.inside == (drawn == edge.expected))
            #expect(tag.labels.allSatisfy { photoRect.contains($0.footprint) } == tag.inside)
        }
    }

    @Test func overlappingTagsAreReportedInPairs() throws {
        let tags = [ImageTag(position: Point(x: 0.40, y: 0.50), labels: [TagLabel(name: "Nike", value: "Air Max 90")], style: 0),
                    ImageTag(position: Point(x: 0.45, y: 0.505), labels: [TagLabel(name: "Adidas")], style: 0),
                    ImageTag(position: Point(x: 0.9, y: 0.1), labels: [TagLabel(name: "Far")], style: 1),
                    ImageTag(position: Point(x: 0.4, y: 0.9), labels: [TagLabel(name: "Apart")], style: 0)]
        let layout = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: tags))
        #expect(layout.overlaps == [TagOverlap(first: 0, second: 1)])
    }

    // MARK: bad input

    @Test func badTagsNameTheField() throws {
        let cases: [(ImageTag, String)] = [
            (ImageTag(position: Point(x: 0.5, y: 0.5), labels: []), "tags[0].labels"),
            (ImageTag(position: Point(x: 0.5, y: 0.5), labels: Array(repeating: TagLabel(name: "a"), count: 4)), "tags[0].labels"),
            (ImageTag(position: Point(x: 1.01, y: 0.5), labels: [TagLabel(name: "a")]), "tags[0].at.x"),
            (ImageTag(position: Point(x: 0.5, y: .nan), labels: [TagLabel(name: "a")]), "tags[0].at.y"),
            (ImageTag(position: Point(x: 0.5, y: 0.5), labels: [TagLabel(name: " \n")]), "tags[0].labels[0].name"),
            (ImageTag(position: Point(x: 0.5, y: 0.5), labels: [TagLabel(name: "a")], style: 4), "tags[0].style"),
            (ImageTag(position: Point(x: 0.5, y: 0.5), labels: [TagLabel(name: "a")], style: -1), "tags[0].style"),
        ]
        for (tag, field) in cases {
            let error = #expect(throws: LayoutError.self) { try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: [tag])) }
            #expect(error?.code == .invalidArgument && error?.field == field, "\(String(describing: error))")
        }
        var metrics = TagMetrics()
        metrics.slantRadius = .infinity
        let error = #expect(throws: LayoutError.self) {
            try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: Self.tags(count: 1, style: 0), metrics: metrics))
        }
        #expect(error?.field == "metrics.slant_radius")
        let photoError = #expect(throws: LayoutError.self) {
            try Fixtures.layouter.layoutTags(TagsRequest(photo: Size(width: 0, height: 10), tags: Self.tags(count: 1, style: 0)))
        }
        #expect(photoError?.field == "photo.width")
    }
}
