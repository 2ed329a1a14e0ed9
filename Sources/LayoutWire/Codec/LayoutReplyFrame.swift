import LayoutEngine

/// The frame of a layout reply, written straight from the engine's layout.
///
/// Its bytes equal `Framing.encode` of the envelope built through
/// `Layoutd_V1_LayoutReply(_:)` (a test holds the two together); it skips building the
/// generated structs and swift-protobuf's two passes over them.
public enum LayoutReplyFrame {
    /// Field numbers, from proto/layoutd/v1/{envelope,layout,geometry}.proto.
    private enum Envelope { static let requestID = 1, layoutReply = 13 }
    private enum Reply {
        static let lines = 1, runs = 2, visibleRange = 3, width = 4, height = 5, direction = 6, backgrounds = 7, attachments = 8
        static let decorations = 9, paints = 10, ruleMatches = 11, containers = 12, overflowRange = 13, writingMode = 14
        static let inkBounds = 15, firstGlyphInk = 16, appliedScale = 17, minContentWidth = 18, maxContentWidth = 19
        static let fillRegions = 20, emphasisMarks = 21, rubyRuns = 22
    }
    enum Line {
        static let range = 1, baselineOrigin = 2, ascent = 3, descent = 4, leading = 5, width = 6
        static let trailingWhitespaceWidth = 7, usedRect = 8, hardBreak = 9, truncated = 10, container = 11, fragmentRect = 12
        static let inkBounds = 13
    }
    enum Run {
        static let fontID = 1, size = 2, bidiLevel = 3, glyphIDs = 4, positions = 5, advances = 6
        static let clusters = 7, range = 8, truncationToken = 9, lineIndex = 10, paint = 11, orientation = 12, inkBounds = 13
        static let variations = 14, hyphen = 15, listMarker = 16, ascent = 17, descent = 18, leading = 19
        static let syntheticBold = 20, syntheticSlant = 21, angles = 22, glyphFlags = 23
    }

    /// Every field this writer writes, by message: a test holds it to the .proto, so a field
    /// added there fails the build's tests until the writer writes it too (a hand-written
    /// writer otherwise drops it without a word). Nested messages written through
    /// swift-protobuf (backgrounds, attachments) are whole.
    public static let writtenFields: [String: Set<Int>] = [
        "layoutd.v1.LayoutReply": [Reply.lines, Reply.runs, Reply.visibleRange, Reply.width, Reply.height, Reply.direction,
                                   Reply.backgrounds, Reply.attachments, Reply.decorations, Reply.paints,
                                   Reply.ruleMatches, Reply.containers, Reply.overflowRange, Reply.writingMode, Reply.inkBounds,
                                   Reply.firstGlyphInk, Reply.appliedScale, Reply.minContentWidth, Reply.maxContentWidth,
                                   Reply.fillRegions, Reply.emphasisMarks, Reply.rubyRuns],
        "layoutd.v1.Line": [Line.range, Line.baselineOrigin, Line.ascent, Line.descent, Line.leading, Line.width,
                            Line.trailingWhitespaceWidth, Line.usedRect, Line.hardBreak, Line.truncated, Line.container,
                            Line.fragmentRect, Line.inkBounds],
        "layoutd.v1.GlyphRun": [Run.fontID, Run.size, Run.bidiLevel, Run.glyphIDs, Run.positions, Run.advances, Run.clusters,
                                Run.range, Run.truncationToken, Run.lineIndex, Run.paint, Run.orientation, Run.inkBounds,
                                Run.variations, Run.hyphen, Run.listMarker, Run.ascent, Run.descent, Run.leading,
                                Run.syntheticBold, Run.syntheticSlant, Run.angles, Run.glyphFlags],
        "layoutd.v1.Range": [1, 2], "layoutd.v1.Point": [1, 2], "layoutd.v1.Rect": [1, 2, 3, 4],
    ]

    /// About what a reply takes per glyph (its id, position, advance and cluster, and its share
    /// of the lines and runs): enough to guess how many bytes a long message's length takes.
    static let bytesPerGlyph = 16

    /// The room to keep for the length of a message holding about `glyphs` glyphs
    /// (`ProtobufWriter.message(_:lengthBytes:_:)`).
    static func lengthBytes(glyphs: Int) -> Int { ProtobufWriter.varintSize(UInt64(max(0, glyphs) * bytesPerGlyph)) }

    public static func encode(requestID: UInt64, layout: ParagraphLayout, backgrounds: [Background] = [],
                              ruleMatches: [Layoutd_V1_RuleMatch] = []) -> [UInt8] {
        let glyphs = layout.glyphCount
        return ProtobufWriter.frame(capacity: 64 + layout.lines.count * 64 + layout.runs.count * 48 + glyphs * 20) { writer in
            writer.fixed32(0)  // the frame header, filled in at the end
            writer.uint64(Envelope.requestID, requestID)
            // Long: its length's room kept ahead.
            writer.message(Envelope.layoutReply, lengthBytes: lengthBytes(glyphs: glyphs)) {
                writeReply(layout, backgrounds: backgrounds, ruleMatches: ruleMatches, to: &$0)
            }
            writer.finishFrame()
        }
    }

    /// A LayoutReply's fields, as swift-protobuf writes `Layoutd_V1_LayoutReply(layout.placed(placement))`
    /// with these backgrounds and rule matches: a layout reply's body, and each paragraph of a
    /// document reply, put in its place in the document as it is written. A paragraph with
    /// attachments, decorations or ink is written from a placed copy instead
    /// (`LayoutReplyFrameTests` holds the two ways equal).
    static func writeReply(_ layout: ParagraphLayout, placed placement: ParagraphPlacement,
                           backgrounds: [Background], ruleMatches: [Layoutd_V1_RuleMatch], to reply: inout ProtobufWriter) {
        if placement.isIdentity {
            writeReply(layout, placement: nil, backgrounds: backgrounds, ruleMatches: ruleMatches, to: &reply)
        } else if layout.movesOnlyLinesAndRuns {
            writeReply(layout, placement: placement, backgrounds: backgrounds, ruleMatches: ruleMatches, to: &reply)
        } else {
            writeReply(layout.placed(placement), placement: nil, backgrounds: backgrounds, ruleMatches: ruleMatches, to: &reply)
        }
    }

    /// The same, where the layout stands as laid out.
    static func writeReply(_ layout: ParagraphLayout, backgrounds: [Background], ruleMatches: [Layoutd_V1_RuleMatch],
                           to reply: inout ProtobufWriter) {
        writeReply(layout, placement: nil, backgrounds: backgrounds, ruleMatches: ruleMatches, to: &reply)
    }

    /// `placement`: nil where the layout stands as laid out; else one that moves only its lines,
    /// runs and visible range (`movesOnlyLinesAndRuns`, no ink).
    private static func writeReply(_ layout: ParagraphLayout, placement: ParagraphPlacement?, backgrounds: [Background],
                                   ruleMatches: [Layoutd_V1_RuleMatch], to reply: inout ProtobufWriter) {
        // The ink and metrics read once: they sit in a box most layouts leave empty.
        let ink = layout.ink
        let metrics = layout.intrinsicMetrics
        if let placement {
            for line in layout.lines { reply.message(Reply.lines) { writePlaced(line, placement, to: &$0) } }
            // Every keystroke's paragraph: written out here, as the plain loop below is.
            layout.runs.withUnsafeBufferPointer { runs in
                for index in runs.indices {
                    let run = runs.baseAddress! + index
                    reply.message(Reply.runs, lengthBytes: runLengthBytes(glyphs: run.pointee.glyphs.count)) {
                        writePlaced(runAt: run, placement, to: &$0)
                    }
                }
            }
            reply.message(Reply.visibleRange) { write(layout.visibleRange.lowerBound &+ placement.offset, layout.visibleRange.count, to: &$0) }
        } else {
            for (index, line) in layout.lines.enumerated() {
                reply.message(Reply.lines) { write(line, ink: ink?.lines[index], to: &$0) }
            }
            let angles = layout.glyphAngles, flags = layout.reportsGlyphFlags
            if angles.isEmpty && !flags {
                // Nearly every reply: the loop written out here (`writeRuns` became a function of
                // its own, its closure called for each run).
                layout.runs.withUnsafeBufferPointer { runs in
                    for index in runs.indices {
                        let run = runs.baseAddress! + index
                        reply.message(Reply.runs, lengthBytes: runLengthBytes(glyphs: run.pointee.glyphs.count)) {
                            write(runAt: run, ink: ink?.runs[index], bounds: metrics?.runs[index], to: &$0)
                        }
                    }
                }
            } else {
                // Text on a path: each run with its glyphs' turns; glyph flags when asked for.
                writeRuns(layout.runs, field: Reply.runs, to: &reply) { run, index, writer in
                    write(runAt: run, ink: ink?.runs[index], bounds: metrics?.runs[index], to: &writer)
                    if !angles.isEmpty { writeAngles(angles[index], to: &writer) }
                    if flags { writeFlags(run, to: &writer) }
                }
            }
            reply.message(Reply.visibleRange) { write(layout.visibleRange, to: &$0) }
        }
        reply.float(Reply.width, Float(layout.size.width))
        reply.float(Reply.height, Float(layout.size.height))
        let direction: Layoutd_V1_Direction = layout.direction == .rightToLeft ? .rtl : .ltr
        reply.enumeration(Reply.direction, direction.rawValue)
        for background in backgrounds {
            // Rare and small beside the glyphs: swift-protobuf writes these.
            let bytes: [UInt8] = (try? Layoutd_V1_BackgroundShape(background).serializedBytes()) ?? []
            reply.message(Reply.backgrounds, serialized: bytes)
        }
        for box in layout.attachments {
            // Rare and small too: swift-protobuf writes them.
            let bytes: [UInt8] = (try? Layoutd_V1_AttachmentBox(box).serializedBytes()) ?? []
            reply.message(Reply.attachments, serialized: bytes)
        }
        // Decorations and paints: only text whose spans paint it has them.
        for decoration in layout.decorations {
            let bytes: [UInt8] = (try? Layoutd_V1_TextDecoration(decoration).serializedBytes()) ?? []
            reply.message(Reply.decorations, serialized: bytes)
        }
        for paint in Layoutd_V1_Paint.list(layout.paints) {
            reply.message(Reply.paints, serialized: (try? paint.serializedBytes()) ?? [])
        }
        for match in ruleMatches { reply.message(Reply.ruleMatches, serialized: (try? match.serializedBytes()) ?? []) }
        for container in layout.containers {
            reply.message(Reply.containers, serialized: (try? Layoutd_V1_ContainerLayout(container).serializedBytes()) ?? [])
        }
        if !layout.overflowRange.isEmpty { reply.message(Reply.overflowRange) { write(layout.overflowRange, to: &$0) } }
        reply.enumeration(Reply.writingMode, Layoutd_V1_WritingMode(layout.writingMode).rawValue)
        if let bounds = ink?.layout { reply.message(Reply.inkBounds) { write(bounds, to: &$0) } }
        if let first = ink?.firstGlyph { reply.message(Reply.firstGlyphInk) { write(first, to: &$0) } }
        if let scale = layout.appliedScale { reply.float(Reply.appliedScale, Float(scale)) }
        if let metrics {
            reply.float(Reply.minContentWidth, Float(metrics.minContent))
            reply.float(Reply.maxContentWidth, Float(metrics.maxContent))
        }
        for region in layout.fillRegions {
            reply.message(Reply.fillRegions, serialized: (try? Layoutd_V1_FillRegion(region).serializedBytes()) ?? [])
        }
        writeRuns(layout.emphasisMarks, field: Reply.emphasisMarks, to: &reply) { marks, _, writer in
            write(runAt: marks, ink: nil, bounds: nil, to: &writer)
        }
        writeRuns(layout.rubyRuns, field: Reply.rubyRuns, to: &reply) { ruby, _, writer in
            write(runAt: ruby, ink: nil, bounds: nil, to: &writer)
        }
    }

    /// The most a line's fields but its ink take: its range (14 bytes), baseline origin (12),
    /// five floats (25), used rect (22), two flags (4), container (6) and fragment rect (22).
    static let lineFieldsBound = 105

    static func write(_ line: LineLayout, ink: Rect?, to writer: inout ProtobufWriter) {
        writer.bounded(lineFieldsBound) { fields in
            fields.message(Line.range) { write(line.range.lowerBound, line.range.count, to: &$0) }
            fields.message(Line.baselineOrigin) { point in
                point.float(1, Float(line.baselineOrigin.x))
                point.float(2, Float(line.baselineOrigin.y))
            }
            fields.float(Line.ascent, Float(line.ascent))
            fields.float(Line.descent, Float(line.descent))
            fields.float(Line.leading, Float(line.leading))
            fields.float(Line.width, Float(line.width))
            fields.float(Line.trailingWhitespaceWidth, Float(line.trailingWhitespaceWidth))
            fields.message(Line.usedRect) { write(line.usedRect, to: &$0) }
            fields.bool(Line.hardBreak, line.hardBreak)
            fields.bool(Line.truncated, line.truncated)
            fields.uint32(Line.container, UInt32(truncatingIfNeeded: line.container))
            if let rect = line.fragmentRect { fields.message(Line.fragmentRect) { write(rect, to: &$0) } }
        }
        if let ink { writer.message(Line.inkBounds) { write(ink, to: &$0) } }
    }

    /// The most a rect's fields take: four floats of 5 bytes each with their tags.
    static let rectBound = 20
    /// The most a range's fields take: two varints of up to 5 bytes, each with a 1-byte tag.
    static let rangeBound = 12

    static func write(_ rect: Rect, to writer: inout ProtobufWriter) {
        writer.bounded(rectBound) { write(rect, to: &$0) }
    }

    /// A rect's fields, into bounded room (`rectBound`).
    @inline(__always)
    static func write(_ rect: Rect, to fields: inout BoundedFields) {
        fields.float(1, Float(rect.x))
        fields.float(2, Float(rect.y))
        fields.float(3, Float(rect.width))
        fields.float(4, Float(rect.height))
    }

    /// A range from its start and length, into bounded room (`rangeBound`). Offsets, counts and
    /// indices are truncated to the wire's 32 bits, as clusters are: a text's are far shorter
    /// (`ServerConfiguration.maxTextUnits`), and the checked conversions cost a test and a branch
    /// each, several a run of every reply.
    @inline(__always)
    static func write(_ start: Int, _ count: Int, to fields: inout BoundedFields) {
        fields.uint32(1, UInt32(truncatingIfNeeded: start))
        fields.uint32(2, UInt32(truncatingIfNeeded: count))
    }

    /// The most a run's fields before its glyphs take: its font (6 bytes), size (5) and level (6).
    static let runHeadBound = 17
    /// The most its fields from its range to its orientation take: range (14), token flag (2),
    /// line (6), paint (6), orientation (11).
    static let runMiddleBound = 39
    /// The most its fields from the hyphen flag on take: two flags (2 and 3), three metrics and
    /// two synthesis floats (6 each).
    static let runTailBound = 35

    /// Each of `runs` as a message of field `field`, read in place (`write(runAt:ink:bounds:to:)`),
    /// `body` writing its fields. The room for each message's length is kept from the run's glyph
    /// count: a run of more than a few glyphs is longer than 127 bytes, and kept one byte (as a
    /// short message is) its body was moved along to make a second.
    @inline(__always)
    static func writeRuns(_ runs: [GlyphRunLayout], field: Int, to writer: inout ProtobufWriter,
                          _ body: (UnsafePointer<GlyphRunLayout>, Int, inout ProtobufWriter) -> Void) {
        runs.withUnsafeBufferPointer { runs in
            for index in runs.indices {
                let run = runs.baseAddress! + index
                writer.message(field, lengthBytes: runLengthBytes(glyphs: run.pointee.glyphs.count)) { body(run, index, &$0) }
            }
        }
    }

    /// About what a run's fields besides its glyphs take: its font, size and level, the four
    /// packed fields' tags and lengths, its range, line and paint.
    static let runFixedBytes = 40

    /// The room to keep for the length of a run of `glyphs` glyphs.
    static func runLengthBytes(glyphs: Int) -> Int {
        ProtobufWriter.varintSize(UInt64(runFixedBytes &+ max(0, glyphs) &* bytesPerGlyph))
    }

    /// A run, read in place, field by field: passed by value (even to a borrowing parameter, from
    /// an array or a buffer) each run was copied for the call, its glyphs and instance retained
    /// and released.
    @inline(__always)
    static func write(runAt run: UnsafePointer<GlyphRunLayout>, ink: Rect?, bounds: TypographicBounds?, to writer: inout ProtobufWriter) {
        writeHead(run, to: &writer)
        run.pointee.glyphs.withUnsafeBufferPointer { writeGlyphs($0, to: &writer) }
        writeMiddle(run, to: &writer)
        if let ink { writer.message(Run.inkBounds) { write(ink, to: &$0) } }
        writeTail(run, bounds: bounds, to: &writer)
    }

    /// A run's glyph ids, positions, advances and clusters (fields 4 to 7).
    @inline(__always)
    static func writeGlyphs(_ glyphs: UnsafeBufferPointer<PositionedGlyph>, to writer: inout ProtobufWriter) {
        let count = glyphs.count
        writer.packedUInt32(Run.glyphIDs, count: count) { glyphs[$0].id }
        writer.packedFloats(Run.positions, count: count * 2) { out in
            for i in 0..<count {
                out.storeBytes(of: Float(glyphs[i].position.x).bitPattern.littleEndian, toByteOffset: i &* 8, as: UInt32.self)
                out.storeBytes(of: Float(glyphs[i].position.y).bitPattern.littleEndian, toByteOffset: i &* 8 &+ 4, as: UInt32.self)
            }
        }
        writer.packedFloats(Run.advances, count: count) { out in
            for i in 0..<count {
                out.storeBytes(of: Float(glyphs[i].advance).bitPattern.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
            }
        }
        writer.packedUInt32(Run.clusters, count: count) { UInt32(truncatingIfNeeded: glyphs[$0].cluster) }
    }

    // A run's fields around its glyphs, shared by `write` and `writePlaced`, read through a
    // pointer to the run, one field at a time (see `write(runAt:ink:bounds:to:)`). Each reads the
    // run's fields before its bounded writer's closure: a closure that captured the run held a
    // copy of it.

    /// Font, size and level.
    @inline(__always)
    static func writeHead(_ run: UnsafePointer<GlyphRunLayout>, to writer: inout ProtobufWriter) {
        let (fontID, size, level) = (run.pointee.fontID, Float(run.pointee.size), UInt32(run.pointee.bidiLevel))
        writer.bounded(runHeadBound) { fields in
            fields.uint32(Run.fontID, fontID)
            fields.float(Run.size, size)
            fields.uint32(Run.bidiLevel, level)
        }
    }

    /// Range to orientation; the range moved by `offset` and the line by `firstLine` (a placed paragraph).
    @inline(__always)
    static func writeMiddle(_ run: UnsafePointer<GlyphRunLayout>, offset: Int = 0, firstLine: Int = 0, to writer: inout ProtobufWriter) {
        let (range, token) = (run.pointee.range, run.pointee.isTruncationToken)
        let (line, paint) = (UInt32(truncatingIfNeeded: run.pointee.lineIndex &+ firstLine), UInt32(truncatingIfNeeded: run.pointee.paint))
        let orientation = Layoutd_V1_GlyphOrientation(run.pointee.orientation).rawValue
        writer.bounded(runMiddleBound) { fields in
            fields.message(Run.range) { write(range.lowerBound &+ offset, range.count, to: &$0) }
            fields.bool(Run.truncationToken, token)
            fields.uint32(Run.lineIndex, line)
            fields.uint32(Run.paint, paint)
            fields.enumeration(Run.orientation, orientation)
        }
    }

    /// A variable font's axes (field 14), then the flags, metrics and synthesis. Nearly every
    /// run has no instance: then no axes and no synthesis.
    @inline(__always)
    static func writeTail(_ run: UnsafePointer<GlyphRunLayout>, bounds: TypographicBounds?, to writer: inout ProtobufWriter) {
        let instance = run.pointee.instance
        if let instance { writeVariations(instance, to: &writer) }
        let (hyphen, marker, size) = (run.pointee.isHyphen, run.pointee.isListMarker, run.pointee.size)
        writer.bounded(runTailBound) { fields in
            fields.bool(Run.hyphen, hyphen)
            fields.bool(Run.listMarker, marker)
            if let bounds {
                fields.float(Run.ascent, Float(bounds.ascent))
                fields.float(Run.descent, Float(bounds.descent))
                fields.float(Run.leading, Float(bounds.leading))
            }
            if let instance { writeSynthesis(instance, size: size, to: &fields) }
        }
    }

    /// A font instance's axes (field 14).
    @inline(__always)
    static func writeVariations(_ instance: Font, to writer: inout ProtobufWriter) {
        for variation in instance.variations {
            writer.message(Run.variations) { inner in
                inner.string(1, variation.tag)
                inner.float(2, variation.value)
            }
        }
    }

    /// Text on a path: each glyph's turn, in degrees (last in the run, as field 22).
    static func writeAngles(_ angles: [Double], to writer: inout ProtobufWriter) {
        writer.packedFloats(Run.angles, count: angles.count) { out in
            for (i, angle) in angles.enumerated() {
                out.storeBytes(of: Layoutd_V1_GlyphRun.wireAngle(angle).bitPattern.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
            }
        }
    }

    /// Each glyph's HarfBuzz flags (`GlyphRun.glyph_flags`).
    static func writeFlags(_ run: UnsafePointer<GlyphRunLayout>, to writer: inout ProtobufWriter) {
        run.pointee.glyphs.withUnsafeBufferPointer { glyphs in
            writer.packedUInt32(Run.glyphFlags, count: glyphs.count) { UInt32(glyphs[$0].flags.rawValue) }
        }
    }

    /// A synthesised face's fields, at the run's size; nothing for a face as it is.
    @inline(__always)
    static func writeSynthesis(_ font: Font, size: Double, to fields: inout BoundedFields) {
        guard !font.synthesis.isEmpty else { return }
        fields.float(Run.syntheticBold, Float(font.syntheticBold(at: size)))
        fields.float(Run.syntheticSlant, Float(font.syntheticSlant))
    }

    static func write(_ start: Int, _ count: Int, to writer: inout ProtobufWriter) {
        writer.bounded(rangeBound) { write(start, count, to: &$0) }
    }

    static func write(_ range: Range<Int>, to writer: inout ProtobufWriter) {
        write(range.lowerBound, range.count, to: &writer)
    }
}
