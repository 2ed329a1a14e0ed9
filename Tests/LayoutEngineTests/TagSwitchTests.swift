import Testing
@testable import LayoutEngine

/// A tag switching style: placed in the style it switches to as it would be placed there alone,
/// and the switch's timeline as hide's first half for the leaving labels and show's second
/// half for the arriving ones, the dot left alone.
@Suite struct TagSwitchTests {
    static let photo = Size(width: 1080, height: 1350)
    static let labels = [TagLabel(name: "Nike", value: "Air Max 90"), TagLabel(name: "¥899")]

    static func geometry(_ labels: [TagLabelGeometry]) -> [[Double]] {
        labels.map { [$0.angle, $0.leader.to.x, $0.leader.to.y, $0.underline.to.x, $0.textRect.x, $0.textRect.y, $0.textRect.width] }
    }

    @Test(arguments: [(0, 1), (1, 3), (2, 0), (3, 3)])
    func theSwitchedLabelsAreTheTagPlacedInItsNextStyle(_ from: Int, _ to: Int) throws {
        let point = Point(x: 0.4, y: 0.6)
        let switching = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: [
            ImageTag(position: point, labels: Self.labels, style: from, switchTo: to),
        ]))
        let alone = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: [ImageTag(position: point, labels: Self.labels, style: to)]))
        let tag = switching.tags[0]
        let switched = try #require(tag.switched)
        #expect(tag.style == from, "the tag is drawn in its own style")
        #expect(switched.style == to)
        #expect(Self.geometry(switched.labels) == Self.geometry(alone.tags[0].labels))
        #expect(switched.labels.map(\.runs) == alone.tags[0].labels.map(\.runs))
        #expect(switched.bounds == alone.tags[0].bounds)
        #expect(tag.dot == alone.tags[0].dot, "the dot does not move")
        let still = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: [ImageTag(position: point, labels: Self.labels, style: from)]))
        #expect(still.tags[0].switched == nil)
        #expect(Self.geometry(still.tags[0].labels) == Self.geometry(tag.labels))
    }

    @Test func keepInsideMovesTheSwitchedStyleToOneThatStaysOn() throws {
        // At the photo's right edge a label to the right (style 0) leaves it; one to the left stays on.
        let edge = Point(x: 0.98, y: 0.5)
        let labels = [TagLabel(name: "A label long enough to leave")]
        var request = TagsRequest(photo: Self.photo, tags: [ImageTag(position: edge, labels: labels, style: 1, switchTo: 0)])
        let loose = try Fixtures.layouter.layoutTags(request)
        #expect(loose.tags[0].switched?.style == 0)
        request.keepInside = true
        let kept = try #require(try Fixtures.layouter.layoutTags(request).tags[0].switched)
        #expect(kept.style != 0)
        #expect(kept.labels.allSatisfy { $0.textRect.x >= 0 && $0.textRect.maxX <= Self.photo.width }, "style \(kept.style) keeps it on")
    }

    @Test func aStyleToSwitchToThatTheTableLacksIsRefusedByName() {
        let request = TagsRequest(photo: Self.photo, tags: [
            ImageTag(position: Point(x: 0.5, y: 0.5), labels: Self.labels),
            ImageTag(position: Point(x: 0.5, y: 0.5), labels: Self.labels, switchTo: 4),
        ])
        #expect {
            _ = try Fixtures.layouter.layoutTags(request)
        } throws: { error in
            (error as? LayoutError)?.field == "tags[1].switch_to.style"
        }
    }

    @Test(arguments: [0.25, 1.0])
    func theSwitchLeavesAsHideBeginsAndArrivesAsShowEnds(_ phase: Double) {
        let timeline = TagTimeline(phaseDuration: phase)
        let (outgoing, incoming) = timeline.switchKeyframes()
        let hide = timeline.keyframes(.hide), show = timeline.keyframes(.show)
        let labelParts: Set<TagKeyframe.Property> = [.textOpacity, .strokeEnd]
        #expect(outgoing == hide.filter { labelParts.contains($0.property) })
        let shifted = show.filter { labelParts.contains($0.property) }.map { var k = $0; k.begin += phase; return k }
        #expect(incoming == shifted)
        #expect(timeline.switchDuration == 4 * phase)
        // Text goes before lines, lines come before text, and the two never overlap.
        func value(_ keyframes: [TagKeyframe], _ property: TagKeyframe.Property, _ time: Double) -> Double {
            keyframes.first { $0.property == property }!.value(at: time)
        }
        for step in 0...40 {
            let time = Double(step) / 10 * phase
            let leavingText = value(outgoing, .textOpacity, time), leavingLine = value(outgoing, .strokeEnd, time)
            let arrivingText = value(incoming, .textOpacity, time), arrivingLine = value(incoming, .strokeEnd, time)
            #expect(leavingLine >= leavingText - 1e-12 && arrivingLine >= arrivingText - 1e-12, "text shows only on a whole line")
            #expect(leavingLine == 0 || arrivingLine == 0, "at \(time): one style's lines at a time")
        }
        #expect(value(incoming, .textOpacity, 4 * phase) == 1 && value(outgoing, .textOpacity, 0) == 1)
    }
}
