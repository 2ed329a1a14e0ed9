/// The fields a request of vertical text carries, named alike in the layout and the Type Mode
/// (justify) request: read onto the daemon's engine and set from `layoutctl`'s options one way
/// for both.
public protocol VerticalTextFields {
    var writingMode: Layoutd_V1_WritingMode { get set }
    var textOrientation: Layoutd_V1_TextOrientation { get set }
    var textCombineUpright: UInt32 { get set }
    var combineLetters: Bool { get set }
}

extension Layoutd_V1_LayoutRequest: VerticalTextFields {}
extension Layoutd_V1_JustifyRequest: VerticalTextFields {}
