/// Where a line may sit: its start from the container's left edge and the width it may fill.
struct LineSlot: Equatable {
    var start: Double
    var width: Double
    /// How far the line's text starts from the box's leading edge (its head indent): tab
    /// stops count from the edge.
    var leadingIndent: Double = 0
}

/// Gives each line its slot from the line's index and its top edge (from the paragraph's top,
/// as positioning stacks the lines above it). One width for every line is the common case; an
/// exclusion path or a shaped container is just another provider.
protocol LineWidths {
    func slot(line: Int, top: Double) -> LineSlot
    /// False when the slot ignores `top`: then `LineBreaker.breakLines` may break every line
    /// before any is positioned (Type Mode does, to size them).
    var dependsOnTop: Bool { get }
}

/// Every line the same width, from the container's left edge.
struct FixedWidth: LineWidths {
    let width: Double
    func slot(line: Int, top: Double) -> LineSlot { LineSlot(start: 0, width: width) }
    var dependsOnTop: Bool { false }
}
