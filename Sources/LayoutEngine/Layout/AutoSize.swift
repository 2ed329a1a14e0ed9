/// Fitting a paragraph into its box by scaling its text down (UIKit's
/// `adjustsFontSizeToFitWidth` with a minimum scale factor, Android's autosize with a step
/// granularity): the largest scale, no smaller than `minScale`, at which every line shows
/// (nothing past `height` or `maxLines`) and fits the width.
public struct AutoSize: Sendable, Equatable {
    /// The smallest scale tried, in (0, 1]; text that does not fit even there is laid out at it
    /// and cut as the request says.
    public var minScale: Double
    /// Sizes a multiple of this many points (the default style's size); 0 fits to 0.01 pt.
    public var step: Double

    public init(minScale: Double = 0.5, step: Double = 0) {
        self.minScale = minScale
        self.step = step
    }

    static let precision = 0.01
}

extension ParagraphLayouter {
    /// The request laid out at the largest scale that fits its box. Every size, letter spacing
    /// and baseline offset scales together (attachments and fixed line heights in points scale
    /// too), so a layout at scale s is the layout at 1 in a box 1/s as large, and one line
    /// (max_lines 1) has a closed form: the box's width over the text's natural width. Wrapped
    /// text is found by bisection on that equivalence (each step breaks the text as given, at
    /// the same sizes, in the smaller box) and laid out once at the scale found; the result is
    /// exact to 0.01 pt of the default size (or to the step).
    func autoSized(_ request: ParagraphRequest, _ fit: AutoSize, context: LayoutContext) throws -> ParagraphLayout {
        let base = request.text.styles[0].size
        func layout(at scale: Double) throws -> ParagraphLayout {
            var scaled = request
            scaled.autoSize = nil
            if scale != 1 {
                scaled.text = request.text.scaled(by: scale)
                scaled.lineHeight = request.lineHeight.map { $0 * scale }
                scaled.attachments = request.attachments.map { $0.scaled(by: scale) }
            }
            var laid = try self.layout(scaled, context: context)
            laid.appliedScale = scale
            return laid
        }
        // A line is as long as the box is wide, or (vertical text) as its columns are long.
        let lineLength = request.writingMode.isVertical ? request.height ?? .infinity : request.width
        func fits(_ layout: ParagraphLayout, lineLength: Double = lineLength) -> Bool {
            layout.overflowRange.isEmpty && layout.lines.allSatisfy { !$0.truncated && $0.width <= lineLength + LineBreaker.tolerance }
        }
        // Scales whose default size is a whole number of steps (or of hundredths of a point).
        let quantum = fit.step > 0 ? fit.step : AutoSize.precision
        func quantized(_ scale: Double) -> Double { (scale * base / quantum + 1e-9).rounded(.down) * quantum / base }
        let full = try layout(at: 1)
        if fits(full) { return full }
        var low = max(fit.minScale, quantum / base), high = 1.0
        // One line (max_lines 1): its natural width is linear in the scale, so the scale is the
        // box's width over it, checked once.
        if request.maxLines == 1 {
            var unbounded = request
            (unbounded.autoSize, unbounded.maxLines, unbounded.height, unbounded.flow) = (nil, nil, nil, nil)
            unbounded.width = Bounds.maxLength
            let natural = try self.layout(unbounded, context: context)
            if natural.lines.count == 1, natural.lines[0].width > 0 {
                let guess = quantized(min(1, lineLength / natural.lines[0].width * (1 - 1e-12)))
                if guess >= low {
                    let laid = try layout(at: guess)
                    if fits(laid) { return laid }
                    high = guess
                }
            }
        }
        // Each step of the bisection lays the text out as given in a box 1/s as large: the same
        // sizes, so the shaping cache answers, where laying it out at each scale shaped anew.
        func fitsAt(_ scale: Double) throws -> Bool {
            var trial = request
            trial.autoSize = nil
            trial.width = request.width / scale
            trial.height = request.height.map { $0 / scale }
            guard request.flow == nil, trial.width <= Bounds.maxLength, (trial.height ?? 0) <= Bounds.maxLength else {
                return fits(try layout(at: scale))
            }
            return fits(try self.layout(trial, context: context), lineLength: lineLength / scale)
        }
        guard try fitsAt(low) else { return try layout(at: low) }
        while true {
            let middle = quantized((low + high) / 2)
            guard middle > low && middle < high else { break }
            if try fitsAt(middle) { low = middle } else { high = middle }
        }
        // The text laid out at the scale found; should rounding in the font's units make it a
        // hair wider than the box, one quantum smaller does it.
        var scale = low
        for _ in 0..<4 {
            let laid = try layout(at: scale)
            if fits(laid) { return laid }
            let smaller = quantized(scale - quantum / base)
            guard smaller >= fit.minScale && smaller < scale else { return laid }
            scale = smaller
        }
        return try layout(at: scale)
    }
}

extension InlineAttachment {
    func scaled(by factor: Double) -> InlineAttachment {
        guard !inEms else { return self }  // ems follow the scaled text already
        var scaled = self
        scaled.width *= factor
        switch extent {
        case .height(let height): scaled.extent = .height(height * factor)
        case .metrics(let ascent, let descent): scaled.extent = .metrics(ascent: ascent * factor, descent: descent * factor)
        }
        return scaled
    }
}
