import LayoutEngine
import LayoutRender
import LayoutWire
import Testing

/// A text fill's gradient and a story frame's are checked by one rule (`StyleRules.checkGradientStops`
/// after one conversion): the same stops give the same error, named under each one's field.
extension ConversionTests {
    /// The error a text fill and a story frame give for `stops`, their fields with the gradient's
    /// own prefix taken off.
    func errors(_ stops: [(Float, Layoutd_V1_Color)]) -> (fill: LayoutError?, frame: LayoutError?) {
        let gradient = Self.gradient((0, 0.5), (1, 0.5), stops: stops)
        var fillError: LayoutError?
        if case .failure(let error) = convert({ $0.defaultStyle.fill = .with { $0.linearGradient = gradient } }) { fillError = error }
        var frameError: LayoutError?
        do {
            _ = try Layoutd_V1_StoryFrame.with { $0.width = 100; $0.height = 100; $0.fill.linearGradient = gradient }
                .storyFrame(defaultFill: Color(red: 1, green: 1, blue: 1), maxPhotoBytes: 1 << 20)
        } catch { frameError = error }
        return (fillError, frameError)
    }

    @Test func textFillsAndStoryFramesRefuseTheSameStopsAlike() throws {
        let bad: [[(Float, Layoutd_V1_Color)]] = [
            [(0, Self.wireRed)],                                            // one stop
            [(0.7, Self.wireRed), (0.2, Self.wireBlue)],                    // out of order
            [(0, Self.wireRed), (.nan, Self.wireBlue)],                     // not a number
            [(0, .with { $0.transparency = 2 }), (1, Self.wireBlue)],      // a bad colour
            // A bad offset and a bad colour: colours are checked first, as the stops are converted.
            [(0.9, Self.wireRed), (0.1, .with { $0.green = -1 })],
            Array(repeating: (0.5, Self.wireRed), count: 65),               // too many
        ]
        let suffixes = [".stops", ".stops[1].offset", ".stops[1].offset", ".stops[0].color.transparency", ".stops[1].color.green", ".stops"]
        for (stops, suffix) in zip(bad, suffixes) {
            let (fill, frame) = errors(stops)
            let fillError = try #require(fill), frameError = try #require(frame)
            #expect(fillError.field == "default_style.fill.linear_gradient" + suffix)
            #expect(frameError.field == "frame.fill.linear_gradient" + suffix)
            #expect(fillError.message == frameError.message)
        }
        let good = errors([(0, Self.wireRed), (0.5, Self.wireBlue), (1, Self.wireRed)])
        #expect(good.fill == nil && good.frame == nil)
    }
}
