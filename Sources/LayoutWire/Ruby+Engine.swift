import LayoutEngine

extension Layoutd_V1_LayoutRequest {
    /// `text` with the request's ruby over it (`ruby_annotations`), each read as the engine's
    /// annotation; the engine checks them against the text (`RubyAnnotation.validate`).
    func withRuby(_ text: AttributedText) throws(LayoutError) -> AttributedText {
        guard !rubyAnnotations.isEmpty else { return text }
        try Bounds.check(count: rubyAnnotations.count, limit: RubyAnnotation.maxAnnotations, field: "ruby_annotations")
        var annotations: [RubyAnnotation] = []
        annotations.reserveCapacity(rubyAnnotations.count)
        for (index, ruby) in rubyAnnotations.enumerated() {
            annotations.append(try RubyAnnotation(ruby, field: "ruby_annotations[\(index)]"))
        }
        return text.withRuby(annotations)
    }
}

extension RubyAnnotation {
    /// The engine's annotation for a wire one: a reading over the base (`text`) or one per
    /// cluster (`readings`), not both.
    init(_ ruby: Layoutd_V1_Ruby, field: String) throws(LayoutError) {
        if !ruby.text.isEmpty && !ruby.readings.isEmpty {
            throw LayoutError(.invalidArgument, "give one reading over the base (text) or one per grapheme cluster (readings), "
                              + "not both", field: field + ".readings")
        }
        let start = Int(ruby.range.start), end = Int(ruby.range.start) + Int(ruby.range.length)
        self.init(base: start..<end, readings: ruby.readings.isEmpty ? [ruby.text] : ruby.readings, under: ruby.under,
                  scale: ruby.scale == 0 ? RubyAnnotation.defaultScale : Double(ruby.scale))
    }
}
