/// What every part of a tag looks like at one moment.
public struct TagPartState: Equatable, Sendable {
    /// The labels' text, 0…1.
    public var textOpacity: Double
    /// How much of each leader line and underline is drawn, from the dot: 0…1.
    public var strokeEnd: Double
    public var dotOpacity: Double
    /// The ring's opacity: the metrics' shadow opacity (0.3) at rest.
    public var shadowOpacity: Double

    public static func shown(shadowOpacity: Double) -> TagPartState {
        TagPartState(textOpacity: 1, strokeEnd: 1, dotOpacity: 1, shadowOpacity: shadowOpacity)
    }

    public static let hidden = TagPartState(textOpacity: 0, strokeEnd: 0, dotOpacity: 0, shadowOpacity: 0)
}

/// Showing or hiding every tag on a photo.
public enum TagAnimationKind: String, Sendable, CaseIterable {
    case hide, show
}

/// One animated property over one phase, as a client's animator plays it: from a value to a
/// value over [begin, begin + duration] seconds, eased out, holding `from` before and `to`
/// after (fill both).
public struct TagKeyframe: Equatable, Sendable {
    public enum Property: String, Sendable, CaseIterable {
        case textOpacity = "text_opacity", strokeEnd = "stroke_end", dotOpacity = "dot_opacity", shadowOpacity = "shadow_opacity"
    }
    public var property: Property
    public var from: Double
    public var to: Double
    public var begin: Double
    public var duration: Double

    public func value(at time: Double) -> Double {
        let progress = duration > 0 ? min(max((time - begin) / duration, 0), 1) : (time >= begin ? 1 : 0)
        return from + (to - from) * TagTimeline.easeOut(progress)
    }
}

/// The show and hide animations as data: hide fades the text over [0, d], retracts the lines
/// over [d, 2d], then fades the dot and its ring over [2d, 3d]; show plays the phases in the
/// reverse order, each the reverse of the hide's.
public struct TagTimeline: Equatable, Sendable {
    /// One phase's length, seconds.
    public var phaseDuration: Double
    /// The ring's opacity at rest.
    public var shadowOpacity: Double

    /// One phase as the article animates it: 1 s (so a whole show or hide takes 3 s).
    public static let articlePhaseSeconds = 1.0

    public init(phaseDuration: Double = TagTimeline.articlePhaseSeconds, shadowOpacity: Double = 0.3) {
        self.phaseDuration = phaseDuration
        self.shadowOpacity = shadowOpacity
    }

    /// The whole animation's length: three phases.
    public var totalDuration: Double { 3 * phaseDuration }

    /// The keyframes of an animation, one per property.
    public func keyframes(_ kind: TagAnimationKind) -> [TagKeyframe] {
        let d = phaseDuration
        switch kind {
        case .hide:
            return [TagKeyframe(property: .textOpacity, from: 1, to: 0, begin: 0, duration: d),
                    TagKeyframe(property: .strokeEnd, from: 1, to: 0, begin: d, duration: d),
                    TagKeyframe(property: .dotOpacity, from: 1, to: 0, begin: 2 * d, duration: d),
                    TagKeyframe(property: .shadowOpacity, from: shadowOpacity, to: 0, begin: 2 * d, duration: d)]
        case .show:
            return [TagKeyframe(property: .dotOpacity, from: 0, to: 1, begin: 0, duration: d),
                    TagKeyframe(property: .shadowOpacity, from: 0, to: shadowOpacity, begin: 0, duration: d),
                    TagKeyframe(property: .strokeEnd, from: 0, to: 1, begin: d, duration: d),
                    TagKeyframe(property: .textOpacity, from: 0, to: 1, begin: 2 * d, duration: d)]
        }
    }

    /// A tag switching style (`ImageTag.switchTo`): its labels go as hide takes them (the text
    /// fades over [0, d], the lines retract over [d, 2d]), then the new style's come as show
    /// brings them (the lines grow over [2d, 3d], the text over [3d, 4d]). The dot and its ring
    /// stay. `outgoing` animates the labels of the style the tag leaves, `incoming` those of
    /// the one it takes; each holds its first value before and its last after.
    public func switchKeyframes() -> (outgoing: [TagKeyframe], incoming: [TagKeyframe]) {
        let d = phaseDuration
        return ([TagKeyframe(property: .textOpacity, from: 1, to: 0, begin: 0, duration: d),
                 TagKeyframe(property: .strokeEnd, from: 1, to: 0, begin: d, duration: d)],
                [TagKeyframe(property: .strokeEnd, from: 0, to: 1, begin: 2 * d, duration: d),
                 TagKeyframe(property: .textOpacity, from: 0, to: 1, begin: 3 * d, duration: d)])
    }

    /// A switch's whole length: four phases.
    public var switchDuration: Double { 4 * phaseDuration }

    /// Every part at `elapsed` seconds into an animation.
    public func state(_ kind: TagAnimationKind, elapsed: Double) -> TagPartState {
        var state = TagPartState.hidden
        for keyframe in keyframes(kind) {
            let value = keyframe.value(at: elapsed)
            switch keyframe.property {
            case .textOpacity: state.textOpacity = value
            case .strokeEnd: state.strokeEnd = value
            case .dotOpacity: state.dotOpacity = value
            case .shadowOpacity: state.shadowOpacity = value
            }
        }
        return state
    }

    /// The ease-out curve of Core Animation and CSS, cubic-bézier (0, 0, 0.58, 1): y for x.
    public static func easeOut(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // x(s) = 3(1-s)²s·x1 + 3(1-s)s²·x2 + s³ with x1 = 0, x2 = 0.58; y likewise with y1 = 0, y2 = 1.
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        // x(s) rises monotonically on [0, 1]: bisection finds s to double precision in 60 steps.
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if bezier(middle, 0, 0.58) < x { low = middle } else { high = middle }
        }
        return bezier((low + high) / 2, 0, 1)
    }
}

/// The photo's tags' visibility as a state machine: shown, hiding, hidden, showing. A hide
/// while hidden or animating is ignored, and so is a show while shown or animating.
public struct TagVisibility: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case shown, hidden
        /// An animation that started at this time, in seconds.
        case hiding(since: Double), showing(since: Double)
    }
    public private(set) var phase: Phase
    public let timeline: TagTimeline

    public init(phase: Phase = .shown, timeline: TagTimeline = TagTimeline()) {
        self.phase = phase
        self.timeline = timeline
    }

    /// An animation that has run its course by `time` becomes its end state.
    public mutating func settle(at time: Double) {
        switch phase {
        case .hiding(let since) where time >= since + timeline.totalDuration: phase = .hidden
        case .showing(let since) where time >= since + timeline.totalDuration: phase = .shown
        default: break
        }
    }

    /// Applies an event at `time`; false when the state machine ignores it.
    @discardableResult
    public mutating func apply(_ event: TagAnimationKind, at time: Double) -> Bool {
        settle(at: time)
        switch (phase, event) {
        case (.shown, .hide): phase = .hiding(since: time)
        case (.hidden, .show): phase = .showing(since: time)
        default: return false
        }
        return true
    }

    /// Every part at `time` (events up to then applied).
    public func state(at time: Double) -> TagPartState {
        var settled = self
        settled.settle(at: time)
        switch settled.phase {
        case .shown: return .shown(shadowOpacity: timeline.shadowOpacity)
        case .hidden: return .hidden
        case .hiding(let since): return timeline.state(.hide, elapsed: time - since)
        case .showing(let since): return timeline.state(.show, elapsed: time - since)
        }
    }
}
