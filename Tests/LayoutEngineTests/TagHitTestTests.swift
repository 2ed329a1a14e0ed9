import Testing
@testable import LayoutEngine

/// Hit-testing tags: the dot within its hit radius (the leader's length, 40 points, by the
/// article's rule), a label within its text rect grown by 5 points, nothing where a part is
/// faded out.
@Suite struct TagHitTestTests {
    static let layout: TagsLayout = {
        let tags = [ImageTag(position: Point(x: 0.5, y: 0.5), labels: [TagLabel(name: "Nike", value: "Air Max 90"), TagLabel(name: "¥899")], style: 2),
                    ImageTag(position: Point(x: 0.2, y: 0.2), labels: [TagLabel(name: "Café")], style: 1)]
        do { return try Fixtures.layouter.layoutTags(TagsRequest(photo: Size(width: 1080, height: 1350), tags: tags)) } catch { fatalError("\(error)") }
    }()

    @Test func theDotIsHitWithinTheLeadersLength() {
        let center = Self.layout.tags[0].dot.center
        // Straight down of the dot, where no label is: 4.1 points out (on the visible ring) is the
        // dot, which counting only the 4-point dot missed; so is 39.99; 40.01 is nothing.
        #expect(Self.layout.hit(Point(x: center.x, y: center.y + 4.1)) == TagHit(tag: 0, part: .dot))
        #expect(Self.layout.hit(Point(x: center.x, y: center.y + 39.99)) == TagHit(tag: 0, part: .dot))
        #expect(Self.layout.hit(Point(x: center.x, y: center.y + 40.01)) == nil)
        let diagonal = 40 / 2.0.squareRoot()
        #expect(Self.layout.hit(Point(x: center.x - diagonal + 0.01, y: center.y + diagonal - 0.01)) == TagHit(tag: 0, part: .dot))
        #expect(Self.layout.hit(Point(x: center.x - diagonal - 0.01, y: center.y + diagonal + 0.01)) == nil)
        // A request may ask for the drawn dot alone.
        #expect(Self.layout.hit(Point(x: center.x, y: center.y + 4.1), dotRadius: 4) == nil)
        #expect(Self.layout.hit(Point(x: center.x, y: center.y + 3.9), dotRadius: 4) == TagHit(tag: 0, part: .dot))
    }

    /// Near its dot a label still wins over the dot's hit circle; the drawn dot wins over both.
    @Test func aLabelNearItsDotStaysReachable() {
        let tag = Self.layout.tags[0]
        let rect = tag.labels[0].textRect
        let nearCorner = Point(x: rect.x - 1, y: rect.y + rect.height / 2)
        #expect(Self.layout.hit(nearCorner) == TagHit(tag: 0, part: .label(0)))
        #expect(Self.layout.hit(tag.dot.center) == TagHit(tag: 0, part: .dot))
    }

    @Test func aLabelIsHitWithinItsGrownTextRect() {
        for (tagIndex, labelIndex) in [(0, 0), (0, 1), (1, 0)] {
            let rect = Self.layout.tags[tagIndex].labels[labelIndex].textRect
            let hit = TagHit(tag: tagIndex, part: .label(labelIndex))
            #expect(Self.layout.hit(Point(x: rect.maxX + 4.99, y: rect.y + rect.height / 2)) == hit)
            #expect(Self.layout.hit(Point(x: rect.maxX + 5.01, y: rect.y + rect.height / 2)) != hit)
            #expect(Self.layout.hit(Point(x: rect.x - 4.99, y: rect.y - 4.99)) == hit)
            #expect(Self.layout.hit(Point(x: rect.x - 5.01, y: rect.y - 4.99)) != hit)
            #expect(Self.layout.hit(Point(x: rect.x + 1, y: rect.maxY + 4.99)) == hit)
            #expect(Self.layout.hit(Point(x: rect.x + 1, y: rect.maxY + 5.01)) != hit)
        }
    }

    @Test func fadedPartsCannotBeHit() {
        let timeline = TagTimeline(phaseDuration: 0.2)
        let rect = Self.layout.tags[0].labels[0].textRect
        let onLabel = Point(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2)
        let onDot = Self.layout.tags[0].dot.center
        #expect(Self.layout.hit(onLabel, state: timeline.state(.hide, elapsed: 0.19)) == TagHit(tag: 0, part: .label(0)), "still fading")
        #expect(Self.layout.hit(onLabel, state: timeline.state(.hide, elapsed: 0.2)) == nil, "text at opacity 0")
        #expect(Self.layout.hit(onDot, state: timeline.state(.hide, elapsed: 0.5)) == TagHit(tag: 0, part: .dot))
        #expect(Self.layout.hit(onDot, state: timeline.state(.hide, elapsed: 0.6)) == nil, "dot at opacity 0")
        #expect(Self.layout.hit(onLabel, state: timeline.state(.show, elapsed: 0.4)) == nil, "text not yet shown")
        #expect(Self.layout.hit(onLabel, state: timeline.state(.show, elapsed: 0.41)) == TagHit(tag: 0, part: .label(0)))
    }
}
