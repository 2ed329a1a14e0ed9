import LayoutEngine

extension Layoutd_V1_TagsRequest {
    /// The engine request this wire request describes, or the first thing wrong with it.
    /// `table` is the daemon's, used when the request carries none.
    public func tagsRequest(fonts: FontRegistry, table: TagStyleTable) throws(LayoutError) -> TagsRequest {
        try Bounds.check(count: tags.count, limit: LayoutEngine.TagsRequest.maxTags, field: "tags")
        let styles = styleTableJson.isEmpty ? table : try TagStyleTable(json: Array(styleTableJson.utf8))
        var nameStyle = try (hasTextStyle ? textStyle.patch(field: "text_style", fonts: fonts) : StylePatch())
            .applied(to: TextStyle(family: fonts.defaultFamily, weight: 600, size: 13))
        if nameStyle.family.isEmpty { nameStyle.family = fonts.defaultFamily }
        // The value takes the name's family and size unless it says otherwise, at a regular weight.
        var valueBase = nameStyle
        valueBase.weight = 400
        let valueStyle = try (hasValueStyle ? self.valueStyle.patch(field: "value_style", fonts: fonts) : StylePatch()).applied(to: valueBase)
        var engineTags: [ImageTag] = []
        engineTags.reserveCapacity(tags.count)
        for (index, tag) in tags.enumerated() {
            let field = "tags[\(index)]"
            guard tag.hasAt else { throw LayoutError(.invalidArgument, "a tag needs its point (x and y in 0…1)", field: field + ".at") }
            guard TagStyleTable.labelCounts.contains(tag.labels.count) else {
                throw LayoutError(.invalidArgument, "a tag has 1 to 3 labels, not \(tag.labels.count)", field: field + ".labels")
            }
            let labels = try tag.labels.enumerated().map { (labelIndex, label) throws(LayoutError) in
                let labelField = "\(field).labels[\(labelIndex)]"
                return TagLabel(name: label.name, value: label.value,
                                style: label.hasStyle ? try label.style.patch(field: labelField + ".style", fonts: fonts).applied(to: nameStyle) : nil,
                                valueStyle: label.hasValueStyle ? try label.valueStyle.patch(field: labelField + ".value_style", fonts: fonts)
                                    .applied(to: valueStyle) : nil)
            }
            engineTags.append(ImageTag(position: Point(x: Double(tag.at.x), y: Double(tag.at.y)), labels: labels, style: Int(tag.style),
                                       switchTo: tag.hasSwitchTo ? Int(tag.switchTo.style) : nil))
        }
        var request = LayoutEngine.TagsRequest(photo: Size(width: Double(photoWidth), height: Double(photoHeight)), tags: engineTags,
                                               table: styles, textStyle: nameStyle, valueStyle: valueStyle, keepInside: keepInside)
        request.clampsToPhoto = clampToPhoto
        if hasMetrics { request.metrics = metrics.engineMetrics }
        return request
    }

    /// The most events a moment replays.
    public static let maxEvents = 1_024

    /// The request's moment replayed: the state machine after its events, the time to report,
    /// and the events it ignored. At rest (shown, at time 0) without a moment.
    public func moment(shadowOpacity: Double) throws(LayoutError) -> (visibility: TagVisibility, time: Double, ignored: [Int]) {
        let phase = moment.phaseSeconds == 0 ? TagTimeline.articlePhaseSeconds : Double(moment.phaseSeconds)
        guard phase.isFinite, phase > 0, phase <= 60 else {
            throw LayoutError(.invalidArgument, "a phase lasts (0, 60] seconds, got \(moment.phaseSeconds)", field: "moment.phase_seconds")
        }
        try Bounds.check(count: moment.events.count, limit: Self.maxEvents, field: "moment.events")
        var visibility = TagVisibility(phase: moment.initiallyHidden ? .hidden : .shown,
                                       timeline: TagTimeline(phaseDuration: phase, shadowOpacity: shadowOpacity))
        var ignored: [Int] = []
        var last = -Double.infinity
        for (index, event) in moment.events.enumerated() {
            let field = "moment.events[\(index)]"
            guard event.atSeconds.isFinite, abs(event.atSeconds) <= 1e9 else {
                throw LayoutError(.invalidArgument, "a time must be a finite number of seconds within 1e9", field: field + ".at_seconds")
            }
            guard event.atSeconds >= last else {
                throw LayoutError(.invalidArgument, "events go in time order; \(event.atSeconds) comes after \(last)", field: field + ".at_seconds")
            }
            last = event.atSeconds
            let kind: TagAnimationKind
            switch event.kind {
            case .hide: kind = .hide
            case .show: kind = .show
            case .none, .switch, .UNRECOGNIZED:
                throw LayoutError(.invalidArgument, "an event is a hide or a show", field: field + ".kind")
            }
            if !visibility.apply(kind, at: event.atSeconds) { ignored.append(index) }
        }
        guard moment.atSeconds.isFinite, abs(moment.atSeconds) <= 1e9 else {
            throw LayoutError(.invalidArgument, "a time must be a finite number of seconds within 1e9", field: "moment.at_seconds")
        }
        return (visibility, moment.atSeconds, ignored)
    }
}

extension Layoutd_V1_TagMetrics {
    /// The defaults, with each field the message sets (checked later by the engine).
    public var engineMetrics: TagMetrics {
        var metrics = TagMetrics()
        if hasSlantRadius { metrics.slantRadius = Double(slantRadius.value) }
        if hasDotRadius { metrics.dotRadius = Double(dotRadius.value) }
        if hasShadowRadius { metrics.shadowRadius = Double(shadowRadius.value) }
        if hasShadowOpacity { metrics.shadowOpacity = Double(shadowOpacity.value) }
        if hasLineWidth { metrics.lineWidth = Double(lineWidth.value) }
        if hasTextGap { metrics.textGap = Double(textGap.value) }
        if hasTextPadding { metrics.textPadding = Double(textPadding.value) }
        if hasMaxLabelWidth { metrics.maxLabelWidth = Double(maxLabelWidth.value) }
        if hasLabelHitSlop { metrics.labelHitSlop = Double(labelHitSlop.value) }
        if hasDotHitRadius { metrics.dotHitRadius = Double(dotHitRadius.value) }
        return metrics
    }
}

extension Layoutd_V1_TagsReply {
    public init(_ layout: TagsLayout, visibility: TagVisibility, time: Double, ignored: [Int]) {
        self.init()
        tags = layout.tags.map(Layoutd_V1_PlacedTag.init)
        overlaps = layout.overlaps.map { pair in
            var overlap = Layoutd_V1_TagOverlap()
            overlap.first = UInt32(pair.first)
            overlap.second = UInt32(pair.second)
            return overlap
        }
        state = Layoutd_V1_TagPartState(visibility.state(at: time))
        var settled = visibility
        settled.settle(at: time)
        phase = switch settled.phase {
        case .shown: .shown
        case .hidden: .hidden
        case .hiding: .hiding
        case .showing: .showing
        }
        ignoredEvents = ignored.map { UInt32($0) }
        hide = visibility.timeline.keyframes(.hide).map(Layoutd_V1_TagKeyframe.init)
        show = visibility.timeline.keyframes(.show).map(Layoutd_V1_TagKeyframe.init)
        let switching = visibility.timeline.switchKeyframes()
        leavingKeyframes = switching.outgoing.map(Layoutd_V1_TagKeyframe.init)
        arrivingKeyframes = switching.incoming.map(Layoutd_V1_TagKeyframe.init)
    }
}

extension Layoutd_V1_PlacedTag {
    public init(_ tag: TagGeometry) {
        self.init()
        index = UInt32(tag.index)
        style = UInt32(tag.style)
        requestedStyle = UInt32(tag.requestedStyle)
        insideStyle = tag.insideStyle.map { Int32($0) } ?? -1
        inside = tag.inside
        dot = Layoutd_V1_Point(tag.dot.center)
        dotRadius = Float(tag.dot.radius)
        shadowRadius = Float(tag.dot.shadowRadius)
        shadowOpacity = Float(tag.dot.shadowOpacity)
        lineWidth = Float(tag.lineWidth)
        labels = tag.labels.map(Layoutd_V1_PlacedTagLabel.init)
        bounds = Layoutd_V1_Rect(tag.bounds)
        at = Layoutd_V1_Point(tag.position)
        clamped = tag.clamped
        legibility = Layoutd_V1_TagLegibility(tag.legibility)
        if let switched = tag.switched {
            self.switched = .with {
                $0.style = UInt32(switched.style)
                $0.labels = switched.labels.map(Layoutd_V1_PlacedTagLabel.init)
                $0.bounds = Layoutd_V1_Rect(switched.bounds)
                $0.legibility = Layoutd_V1_TagLegibility(switched.legibility)
            }
        }
    }
}

extension Layoutd_V1_PlacedTagLabel {
    public init(_ label: TagLabelGeometry) {
        self.init()
        angle = Float(label.angle)
        side = label.side.rawValue
        leaderFrom = Layoutd_V1_Point(label.leader.from)
        leaderTo = Layoutd_V1_Point(label.leader.to)
        underlineTo = Layoutd_V1_Point(label.underline.to)
        textRect = Layoutd_V1_Rect(label.textRect)
        baselineOrigin = Layoutd_V1_Point(label.baselineOrigin)
        runs = label.runs.map(Layoutd_V1_GlyphRun.init)
        truncated = label.truncated
        text = label.text
        if let backing = label.backingRect { backingRect = Layoutd_V1_Rect(backing) }
    }
}

extension Layoutd_V1_TagLegibility {
    public init(_ legibility: TagLegibility) {
        self.init()
        shadowBlur = Float(legibility.shadowBlur)
        shadowOpacity = Float(legibility.shadowOpacity)
        if let backing = legibility.backing { self.backing = Layoutd_V1_Color(backing) }
        backingRadius = Float(legibility.backingRadius)
    }
}

extension Layoutd_V1_TagPartState {
    public init(_ state: TagPartState) {
        self.init()
        textOpacity = Float(state.textOpacity)
        strokeEnd = Float(state.strokeEnd)
        dotOpacity = Float(state.dotOpacity)
        shadowOpacity = Float(state.shadowOpacity)
    }
}

extension Layoutd_V1_TagKeyframe {
    public init(_ keyframe: TagKeyframe) {
        self.init()
        property = keyframe.property.rawValue
        from = Float(keyframe.from)
        to = Float(keyframe.to)
        beginSeconds = keyframe.begin
        durationSeconds = keyframe.duration
        timingFunction = "cubic-bezier(0, 0, 0.58, 1)"
    }
}

extension Layoutd_V1_TagStyleReply {
    public init(style index: Int, in table: TagStyleTable, labelCount: Int) throws(LayoutError) {
        self.init()
        let style = try table.style(index, labelCount: labelCount, field: "style")
        matched = true
        self.style = UInt32(index)
        name = style.name ?? ""
        styleCount = UInt32(table.count(for: labelCount))
        labels = style.labels.map { label in
            var wire = Layoutd_V1_TagLabelStyle()
            wire.angle = Float(label.angle)
            wire.line = label.line.rawValue
            wire.side = label.side.rawValue
            return wire
        }
    }
}
