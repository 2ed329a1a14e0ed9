import LayoutEngine

extension Font {
    /// The face HarfBuzz reads from `hbFace`, of the file whose bytes `bytes` holds (the font
    /// keeps them, for the renderer): its metrics, coverage, axes and named instances read once.
    static func loaded(id: UInt32, family: String, styleName: String, weight: Int, italic: Bool, widthClass: Int,
                       path: String, faceIndex: Int, bytes: FontBytes, hbFace: OpaquePointer) -> Font {
        let (font, metrics) = FaceFonts.make(hbFace, coordinates: [], pointSize: 0)
        let shaping = HarfBuzzShaping(font, coordinates: [], pointSize: 0)  // makes the font immutable
        let (axes, namedInstances) = variationData(hbFace)
        let bits = emptyCoverage()
        var coverageCount = FontFaces.collectCoverage(hbFace, into: bits)
        if CmapSubtables.mapsBeyondItsSet(hbFace) {
            // HarfBuzz maps more than its set lists: ask it of every BMP code point (a few
            // milliseconds, for these rare fonts only).
            for scalar in 0..<UInt32(0x10000) where !covers(bits, UInt16(scalar)) && shaping.nominalGlyph(scalar) != nil {
                bits[Int(scalar) >> 6] |= 1 << UInt64(scalar & 63)
                coverageCount += 1
            }
        }
        addShaperFallbacks(to: bits)
        return Font(id: id, family: family, styleName: styleName, weight: weight, italic: italic, widthClass: widthClass,
                    path: path, faceIndex: faceIndex, metrics: metrics, isColorEmoji: FontFaces.hasColorGlyphs(hbFace), axes: axes,
                    namedInstances: namedInstances, coverageCount: coverageCount, bmpCoverage: bits, instanceOf: nil,
                    coordinates: [], shaping: shaping, blob: bytes, tracks: FontFaces.hasTracking(hbFace))
    }

    /// The HarfBuzz font the face shapes with, for the glyph outlines drawing traces; nil for a
    /// face HarfBuzz does not shape (a synthesised one, the stage tests'). Valid while this font lives.
    package var hbFont: OpaquePointer? { (shaping as? HarfBuzzShaping)?.font }

    /// The HarfBuzz blob of the face's file, for the renderer's FreeType faces; nil for a face
    /// without a file. Valid while this font lives.
    package var fileBlob: OpaquePointer? { (blob as? FontBytes)?.blob }

    /// The axes and named instances of a variable face (`fvar`), read once at load.
    private static func variationData(_ face: OpaquePointer) -> ([VariationAxis], [NamedInstance]) {
        let (axes, instances) = FontFaces.variations(face)
        return (axes.map { VariationAxis(tag: OpenTypeTag.unpack($0.tag), minimum: $0.minimum, defaultValue: $0.defaultValue,
                                         maximum: $0.maximum) },
                instances.enumerated().map { index, instance in
                    NamedInstance(name: FontFaces.name(face, instance.nameID) ?? "Instance \(index)", coordinates: instance.coordinates)
                })
    }
}

extension ParagraphLayouter {
    /// HarfBuzz shaping calls made so far by every layouter in this process.
    public static var harfBuzzCalls: UInt64 { ShapingBuffer.calls.load(ordering: .relaxed) }
}
