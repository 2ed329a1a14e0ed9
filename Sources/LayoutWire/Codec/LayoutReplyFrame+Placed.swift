import LayoutEngine

/// A document's paragraph written where the document puts it (`ParagraphPlacement`), as
/// `write(_:ink:to:)` would write `ParagraphLayout.placed(placement)`'s lines and runs, without
/// the moved copy, which allocated every run's glyphs again for each keystroke. Beside the plain
/// writers rather than folded into them: a placement parameter there cost every layout reply
/// its closures' inlining. `DocumentReplyFrameTests` holds the bytes equal to the placed copy's.
/// A paragraph with attachments, decorations or ink is written from a placed copy instead
/// (`ParagraphLayout.movesOnlyLinesAndRuns`), so there is no ink here.
///
/// Each writer is a function of its own (`@inline(never)`): inlined into `writeReply`, the
/// placed loops went past the optimizer's budget there, and every float of a line's and a run's
/// fields became two calls (`Float.bitPattern`, `storeBytes`): Benchmarks/results/editing.md,
/// session 50.
extension LayoutReplyFrame {
    @inline(never)
    static func writePlaced(_ line: LineLayout, _ placement: ParagraphPlacement, to writer: inout ProtobufWriter) {
        // As `placed` moves it: y plus the top, even a top of 0 (-0 + 0 is 0).
        let top = placement.top
        writer.bounded(lineFieldsBound) { fields in
            fields.message(Line.range) { write(line.range.lowerBound &+ placement.offset, line.range.count, to: &$0) }
            fields.message(Line.baselineOrigin) { point in
                point.float(1, Float(line.baselineOrigin.x))
                point.float(2, Float(line.baselineOrigin.y + top))
            }
            fields.float(Line.ascent, Float(line.ascent))
            fields.float(Line.descent, Float(line.descent))
            fields.float(Line.leading, Float(line.leading))
            fields.float(Line.width, Float(line.width))
            fields.float(Line.trailingWhitespaceWidth, Float(line.trailingWhitespaceWidth))
            fields.message(Line.usedRect) { rect in
                rect.float(1, Float(line.usedRect.x))
                rect.float(2, Float(line.usedRect.y + top))
                rect.float(3, Float(line.usedRect.width))
                rect.float(4, Float(line.usedRect.height))
            }
            fields.bool(Line.hardBreak, line.hardBreak)
            fields.bool(Line.truncated, line.truncated)
            fields.uint32(Line.container, UInt32(line.container))
            if var rect = line.fragmentRect {
                rect.y += top
                fields.message(Line.fragmentRect) { write(rect, to: &$0) }
            }
        }
    }

    /// A run, read in place (`write(runAt:ink:bounds:to:)`).
    @inline(never)
    static func writePlaced(runAt run: UnsafePointer<GlyphRunLayout>, _ placement: ParagraphPlacement,
                            to writer: inout ProtobufWriter) {
        let (top, offset) = (placement.top, placement.offset)
        writeHead(run, to: &writer)
        run.pointee.glyphs.withUnsafeBufferPointer { glyphs in
            let count = glyphs.count
            writer.packedUInt32(Run.glyphIDs, count: count) { glyphs[$0].id }
            writer.packedFloats(Run.positions, count: count * 2) { out in
                for i in 0..<count {
                    out.storeBytes(of: Float(glyphs[i].position.x).bitPattern.littleEndian, toByteOffset: i &* 8, as: UInt32.self)
                    out.storeBytes(of: Float(glyphs[i].position.y + top).bitPattern.littleEndian, toByteOffset: i &* 8 &+ 4, as: UInt32.self)
                }
            }
            writer.packedFloats(Run.advances, count: count) { out in
                for i in 0..<count {
                    out.storeBytes(of: Float(glyphs[i].advance).bitPattern.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
                }
            }
            writer.packedUInt32(Run.clusters, count: count) { UInt32(truncatingIfNeeded: glyphs[$0].cluster &+ offset) }
        }
        writeMiddle(run, offset: offset, firstLine: placement.firstLine, to: &writer)
        writeTail(run, bounds: nil, to: &writer)
    }
}
