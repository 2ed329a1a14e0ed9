extension RubyAnnotation {
    /// Rejects annotations that cannot be placed, naming the field (`ruby_annotations[i]…`).
    static func validate(_ ruby: [RubyAnnotation], units: ContiguousArray<UInt16>) throws(LayoutError) {
        try Bounds.check(count: ruby.count, limit: maxAnnotations, field: "ruby_annotations")
        var readingUnits = 0
        var previousEnd = 0
        let boundaries = clusterBoundaries(units)
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
            let clusters = try graphemeClusters(boundaries, base, field: field + ".range")
            guard !annotation.readings.isEmpty else {
                throw LayoutError(.invalidArgument, "give one reading over the base, or one per grapheme cluster of it",
                                  field: field + ".text")
            }
            if annotation.isJukugo && annotation.readings.count != clusters {
                throw LayoutError(.invalidArgument, "jukugo ruby has one reading per grapheme cluster of the base: the base has "
                                  + "\(clusters), the readings are \(annotation.readings.count)", field: field + ".readings")
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

    /// Where the text's grapheme clusters start, and its end: found once for all the bases.
    private static func clusterBoundaries(_ units: ContiguousArray<UInt16>) -> [Int] {
        var boundaries = [0]
        var offset = 0
        for character in String(decoding: units, as: UTF16.self) {
            offset += character.utf16.count
            boundaries.append(offset)
        }
        return boundaries
    }

    /// The grapheme clusters of `base`, which must start and end at cluster boundaries.
    private static func graphemeClusters(_ boundaries: [Int], _ base: Range<Int>, field: String) throws(LayoutError) -> Int {
        let first = ShapedParagraph.firstIndex(boundaries.count) { boundaries[$0] >= base.lowerBound }
        let last = ShapedParagraph.firstIndex(boundaries.count) { boundaries[$0] >= base.upperBound }
        guard first < boundaries.count, boundaries[first] == base.lowerBound, last < boundaries.count,
              boundaries[last] == base.upperBound else {
            throw LayoutError(.invalidArgument, "the base \(base.lowerBound)..<\(base.upperBound) cuts a grapheme cluster: it "
                              + "must start and end between whole characters", field: field)
        }
        return last - first
    }

    /// Units that end a line or a paragraph.
    private static func isLineBreak(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
