extension RubyAnnotation {
    /// Rejects annotations that cannot be placed, naming the field (`ruby_annotations[i]…`).
    /// Whether a base is whole grapheme clusters, and a jukugo's readings one per cluster, is
    /// checked where the text's clusters are known (`RubyBases.check`).
    static func validate(_ ruby: [RubyAnnotation], units: ContiguousArray<UInt16>) throws(LayoutError) {
        try Bounds.check(count: ruby.count, limit: maxAnnotations, field: "ruby_annotations")
        var readingUnits = 0
        var previousEnd = 0
        for annotation in ruby {
            let field = "ruby_annotations[\(annotation.requestIndex)]"
            let base = annotation.base
            guard base.lowerBound >= 0, base.upperBound <= units.count, !base.isEmpty else {
                throw LayoutError(.invalidArgument, "the base \(base.lowerBound)..<\(base.upperBound) must be a non-empty range of "
                                  + "the text's \(units.count) UTF-16 units", field: field + ".range")
            }
            guard base.lowerBound >= previousEnd else {
                throw LayoutError(.invalidArgument, "bases may not overlap: this one starts at \(base.lowerBound), inside the one "
                                  + "before it, which ends at \(previousEnd)", field: field + ".range")
            }
            previousEnd = base.upperBound
            if let breakAt = base.first(where: { isLineBreak(units[$0]) }) {
                throw LayoutError(.invalidArgument, "a base lies within one line: it holds a line or paragraph break at UTF-16 offset "
                                  + "\(breakAt)", field: field + ".range")
            }
            guard !annotation.readings.isEmpty else {
                throw LayoutError(.invalidArgument, "give one reading over the base, or one per grapheme cluster of it",
                                  field: field + ".text")
            }
            for (k, reading) in annotation.readings.enumerated() {
                let readingField = annotation.isJukugo ? field + ".readings[\(k)]" : field + ".text"
                guard !reading.isEmpty else { throw LayoutError(.invalidArgument, "a reading may not be empty", field: readingField) }
                if reading.utf16.contains(where: isLineBreak) {
                    throw LayoutError(.invalidArgument, "a reading is set on one line: it may not hold a line break", field: readingField)
                }
                readingUnits += reading.utf16.count
            }
            guard readingUnits <= maxReadingUnits else {
                throw LayoutError(.resourceExhausted, "the readings hold more than \(maxReadingUnits) UTF-16 units in all",
                                  field: field + ".text")
            }
            guard annotation.scale.isFinite, (0.1...1).contains(annotation.scale) else {
                throw LayoutError(.invalidArgument, "must be in [0.1, 1] (0 takes half the base's size), got \(annotation.scale)",
                                  field: field + ".scale")
            }
        }
    }

    /// Units that end a line or a paragraph.
    private static func isLineBreak(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
