import LayoutEngine
import LayoutWire

extension RequestProcessor {
    /// A photo's tags placed, at the request's moment of the show/hide animation.
    func tags(_ request: Layoutd_V1_TagsRequest, budget: WorkBudget = .unlimited) throws -> Layoutd_V1_TagsReply {
        let placed = try placedTags(request, budget: budget)
        return Layoutd_V1_TagsReply(placed.layout, visibility: placed.visibility, time: placed.time, ignored: placed.ignored)
    }

    /// The tags laid out and the moment replayed: what the tags reply, hit-testing and rendering share.
    func placedTags(_ request: Layoutd_V1_TagsRequest, budget: WorkBudget) throws
        -> (layout: TagsLayout, visibility: TagVisibility, time: Double, ignored: [Int]) {
        let engineRequest = try request.tagsRequest(fonts: layouter.fonts, table: configuration.tagStyles)
        let moment = try request.moment(shadowOpacity: engineRequest.metrics.shadowOpacity)
        let layout = try layouter.layoutTags(engineRequest, budget: budget)
        return (layout, moment.visibility, moment.time, moment.ignored)
    }

    /// The part of a tag under a point, with the parts as the moment has them.
    func tagHit(_ request: Layoutd_V1_TagHitRequest, budget: WorkBudget = .unlimited) throws -> Layoutd_V1_TagHitReply {
        guard request.hasPoint, request.point.x.isFinite, request.point.y.isFinite else {
            throw LayoutError(.invalidArgument, "hit-testing needs a finite point", field: "point")
        }
        let placed = try under("tags") { try placedTags(request.tags, budget: budget) }
        let state = placed.visibility.state(at: placed.time)
        var reply = Layoutd_V1_TagHitReply()
        reply.state = Layoutd_V1_TagPartState(state)
        // The metrics were checked when the tags were placed.
        let metrics = request.tags.metrics.engineMetrics
        guard let hit = placed.layout.hit(Point(x: Double(request.point.x), y: Double(request.point.y)), state: state,
                                          slop: metrics.labelHitSlop, dotRadius: metrics.effectiveDotHitRadius) else {
            return reply
        }
        reply.tag = UInt32(hit.tag)
        switch hit.part {
        case .dot: reply.part = .dot
        case .label(let index):
            reply.part = .label
            reply.label = UInt32(index)
        }
        return reply
    }

    /// Toggle to the next style, or reset: recognise the style from every label's angle.
    func tagStyle(_ request: Layoutd_V1_TagStyleRequest) throws -> Layoutd_V1_TagStyleReply {
        let table = request.styleTableJson.isEmpty ? configuration.tagStyles : try TagStyleTable(json: Array(request.styleTableJson.utf8))
        let count = Int(request.labelCount)
        guard TagStyleTable.labelCounts.contains(count) else {
            throw LayoutError(.invalidArgument, "a tag has 1 to 3 labels, not \(count)", field: "label_count")
        }
        switch request.operation {
        case .toggleFrom(let style):
            let next = try table.toggled(Int(style), labelCount: count)
            return try Layoutd_V1_TagStyleReply(style: next, in: table, labelCount: count)
        case .reset(let angles):
            guard angles.degrees.count == count else {
                throw LayoutError(.invalidArgument, "\(angles.degrees.count) angles for \(count) labels", field: "reset.degrees")
            }
            let tolerance = request.toleranceDegrees == 0 ? 0.5 : Double(request.toleranceDegrees)
            guard tolerance.isFinite, tolerance > 0, tolerance <= 180 else {
                throw LayoutError(.invalidArgument, "a tolerance in (0, 180] degrees, got \(request.toleranceDegrees)", field: "tolerance_degrees")
            }
            guard let style = table.recognize(angles: angles.degrees, tolerance: tolerance) else {
                var reply = Layoutd_V1_TagStyleReply()
                reply.styleCount = UInt32(table.count(for: count))
                return reply  // matched stays false: no style has these angles
            }
            return try Layoutd_V1_TagStyleReply(style: style, in: table, labelCount: count)
        case .none:
            throw LayoutError(.invalidArgument, "ask for a toggle or a reset", field: "operation")
        }
    }
}
