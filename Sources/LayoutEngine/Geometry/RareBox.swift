/// Values a struct carries only now and then (a style's variations and script, a layout's ink
/// and fill regions): kept behind one reference that is nil while nothing is set, so the struct
/// stays small where it is copied, compared and hashed on every request.
protocol RareValues: Sendable {
    /// Nothing set.
    init()
    var isEmpty: Bool { get }
}

/// The values, never changed once made: a change makes a new box, or none.
final class RareBox<Values: RareValues>: Sendable {
    let values: Values

    private init(_ values: Values) { self.values = values }

    /// A box holding `values`, or nil when nothing is set in them (no object is made for it).
    static func make(_ values: Values) -> RareBox? { values.isEmpty ? nil : RareBox(values) }

    /// `box` with `change` made: nil again when nothing is left set.
    static func change(_ box: inout RareBox?, _ change: (inout Values) -> Void) {
        var values = box?.values ?? Values()
        change(&values)
        box = make(values)
    }
}

extension RareBox: Equatable where Values: Equatable {
    static func == (a: RareBox, b: RareBox) -> Bool { a === b || a.values == b.values }
}

extension RareBox: Hashable where Values: Hashable {

    func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
