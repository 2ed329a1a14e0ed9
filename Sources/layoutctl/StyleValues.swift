import ArgumentParser

/// A size or weight the user typed, as the wire takes it. On the wire 0 means "not set": the
/// default for a default style, the surrounding style's for a span or an edit. Typed outright it
/// would be dropped without a word (laid out at 17 points, or 400), so it is refused here, with
/// the option that gave it.
enum StyleValues {
    static func size(_ points: Float, option: String) throws -> Float {
        guard points > 0 else { throw ValidationError("\(option) must be greater than 0 points, not \(points)") }
        return points
    }

    /// Above 1000 is left to the daemon, whose error names the request's field. Not quoted back:
    /// an edit's negative weight arrives here as 0.
    static func weight(_ weight: UInt32, option: String) throws -> UInt32 {
        guard weight > 0 else { throw ValidationError("\(option) must be 1 to 1000") }
        return weight
    }
}
