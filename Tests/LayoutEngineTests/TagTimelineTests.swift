import Testing
@testable import LayoutEngine

/// The show/hide timeline and its state machine.
@Suite struct TagTimelineTests {
    static let d = 0.2
    static let timeline = TagTimeline(phaseDuration: d)

    /// Ease-out found another way: the curve sampled densely, y read at the nearest x.
    static func sampledEaseOut(_ x: Double) -> Double {
        var best = (distance: Double.infinity, y: 0.0)
        for step in 0...200_000 {
            let s = Double(step) / 200_000
            let curveX = 3 * (1 - s) * s * s * 0.58 + s * s * s
            let curveY = 3 * (1 - s) * s * s + s * s * s
            if abs(curveX - x) < best.distance { best = (abs(curveX - x), curveY) }
        }
        return best.y
    }

    static func near(_ a: TagPartState, _ b: TagPartState) -> Bool {
        abs(a.textOpacity - b.textOpacity) < 1e-9 && abs(a.strokeEnd - b.strokeEnd) < 1e-9
            && abs(a.dotOpacity - b.dotOpacity) < 1e-9 && abs(a.shadowOpacity - b.shadowOpacity) < 1e-9
    }

    @Test func easeOutIsCoreAnimationsCurve() {
        #expect(TagTimeline.easeOut(0) == 0 && TagTimeline.easeOut(1) == 1 && TagTimeline.easeOut(-1) == 0 && TagTimeline.easeOut(2) == 1)
        for x in [0.1, 0.25, 0.5, 0.75, 0.9] {
            #expect(abs(TagTimeline.easeOut(x) - Self.sampledEaseOut(x)) < 1e-4)
            #expect(TagTimeline.easeOut(x) > x, "ease-out runs ahead of linear")
        }
    }

    @Test func hideFadesTextThenRetractsLinesThenFadesTheDot() {
        let e = TagTimeline.easeOut(0.5)
        let expected: [(Double, TagPartState)] = [
            (-0.1, TagPartState(textOpacity: 1, strokeEnd: 1, dotOpacity: 1, shadowOpacity: 0.3)),  // before: holds its first values
            (0, TagPartState(textOpacity: 1, strokeEnd: 1, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.1, TagPartState(textOpacity: 1 - e, strokeEnd: 1, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.2, TagPartState(textOpacity: 0, strokeEnd: 1, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.3, TagPartState(textOpacity: 0, strokeEnd: 1 - e, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.4, TagPartState(textOpacity: 0, strokeEnd: 0, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.5, TagPartState(textOpacity: 0, strokeEnd: 0, dotOpacity: 1 - e, shadowOpacity: 0.3 * (1 - e))),
            (0.6, .hidden),
            (0.9, .hidden),  // after: holds its last values
        ]
        for (time, state) in expected {
            #expect(Self.near(Self.timeline.state(.hide, elapsed: time), state), "t = \(time)")
        }
    }

    @Test func showPlaysThePhasesInReverse() {
        let e = TagTimeline.easeOut(0.5)
        let expected: [(Double, TagPartState)] = [
            (-0.1, .hidden),
            (0, .hidden),
            (0.1, TagPartState(textOpacity: 0, strokeEnd: 0, dotOpacity: e, shadowOpacity: 0.3 * e)),
            (0.2, TagPartState(textOpacity: 0, strokeEnd: 0, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.3, TagPartState(textOpacity: 0, strokeEnd: e, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.4, TagPartState(textOpacity: 0, strokeEnd: 1, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.5, TagPartState(textOpacity: e, strokeEnd: 1, dotOpacity: 1, shadowOpacity: 0.3)),
            (0.6, .shown(shadowOpacity: 0.3)),
            (1.0, .shown(shadowOpacity: 0.3)),
        ]
        for (time, state) in expected {
            #expect(Self.near(Self.timeline.state(.show, elapsed: time), state), "t = \(time)")
        }
    }

    /// Just before and just after each phase boundary, both ways: only the phase's own property moves.
    @Test(arguments: [TagAnimationKind.hide, .show])
    func eachBoundaryHandsOverToTheNextPhase(_ kind: TagAnimationKind) {
        let epsilon = 1e-6
        let order: [TagKeyframe.Property] = kind == .hide ? [.textOpacity, .strokeEnd, .dotOpacity] : [.dotOpacity, .strokeEnd, .textOpacity]
        func value(_ property: TagKeyframe.Property, _ time: Double) -> Double {
            let state = Self.timeline.state(kind, elapsed: time)
            switch property {
            case .textOpacity: return state.textOpacity
            case .strokeEnd: return state.strokeEnd
            case .dotOpacity: return state.dotOpacity
            case .shadowOpacity: return state.shadowOpacity
            }
        }
        let start = kind == .hide ? 1.0 : 0.0, end = 1 - start
        for (phase, property) in order.enumerated() {
            let begin = Double(phase) * Self.d, finish = begin + Self.d
            #expect(value(property, begin - epsilon) == start, "\(property) holds before its phase")
            #expect(value(property, begin) == start)
            #expect(value(property, begin + epsilon) != start, "\(property) moves as its phase starts")
            #expect(value(property, finish - epsilon) != end)
            #expect(value(property, finish) == end)
            #expect(value(property, finish + epsilon) == end, "\(property) holds after its phase")
            for other in order where other != property {
                let otherPhase = Double(order.firstIndex(of: other)!)
                let expected = otherPhase < Double(phase) ? end : start
                #expect(value(other, begin + Self.d / 2) == expected, "only \(property) moves in phase \(phase)")
            }
        }
    }

    @Test func theStateMachineIgnoresEventsWhileAnimatingOrAlreadyThere() {
        var visibility = TagVisibility(timeline: Self.timeline)
        func apply(_ event: TagAnimationKind, at time: Double) -> Bool { visibility.apply(event, at: time) }
        #expect(!apply(.show, at: 0), "a show while shown is ignored")
        #expect(apply(.hide, at: 1))
        #expect(!apply(.hide, at: 1.1), "a hide while hiding is ignored")
        #expect(!apply(.show, at: 1.3), "a show while hiding is ignored")
        #expect(Self.near(visibility.state(at: 1.3), Self.timeline.state(.hide, elapsed: 0.3)))
        #expect(!apply(.hide, at: 1.6), "hidden at 1 + 3d: a hide is ignored")
        #expect(visibility.phase == .hidden)
        #expect(apply(.show, at: 2))
        #expect(!apply(.show, at: 2.5), "a show while showing is ignored")
        #expect(!apply(.hide, at: 2.5), "a hide while showing is ignored")
        #expect(Self.near(visibility.state(at: 2.5), Self.timeline.state(.show, elapsed: 0.5)))
        #expect(visibility.state(at: 2.6) == .shown(shadowOpacity: 0.3))
        #expect(apply(.hide, at: 2.6), "shown again at 2 + 3d")
    }
}
