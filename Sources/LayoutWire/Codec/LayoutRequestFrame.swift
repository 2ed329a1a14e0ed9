/// The frame of a layout request, written field by field: the client's side of
/// `LayoutRequestReader`. Its bytes equal `Framing.encode` of the same envelope (a test
/// holds them together); a message carrying unknown fields goes through swift-protobuf.
public enum LayoutRequestFrame {
    public static func encode(requestID: UInt64, deadlineMs: UInt32, request: Layoutd_V1_LayoutRequest) -> [UInt8]? {
        guard request.unknownFields.data.isEmpty else { return nil }
        var clean = true
        var writer = ProtobufWriter(capacity: 64 + request.text.utf8.count * 2)
        writer.fixed32(0)  // the frame header, filled in at the end
        writer.uint64(1, requestID)
        writer.uint32(2, deadlineMs)
        writer.message(12) { body in
            body.string(1, request.text)
            if request.hasDefaultStyle { body.message(2) { clean = write(request.defaultStyle, to: &$0) && clean } }
            for span in request.spans {
                guard span.unknownFields.data.isEmpty else { clean = false; continue }
                body.message(3) { message in
                    if span.hasRange {
                        message.message(1) { range in
                            range.uint32(1, span.range.start)
                            range.uint32(2, span.range.length)
                        }
                        clean = clean && span.range.unknownFields.data.isEmpty
                    }
                    if span.hasStyle { message.message(2) { clean = write(span.style, to: &$0) && clean } }
                }
            }
            body.float(4, request.width)
            body.float(5, request.height)
            body.enumeration(6, request.alignment.rawValue)
            body.enumeration(7, request.direction.rawValue)
            body.float(8, request.lineHeightMultiple)
            body.float(9, request.lineHeight)
            body.uint32(10, request.maxLines)
            if request.hasTruncation {
                body.message(11) { $0.string(1, request.truncation.token) }
                clean = clean && request.truncation.unknownFields.data.isEmpty
            }
            for spec in request.backgrounds {
                // Rare beside text and styles: swift-protobuf writes these.
                guard let bytes: [UInt8] = try? spec.serializedBytes() else { clean = false; continue }
                body.message(12, serialized: bytes)
            }
        }
        guard clean else { return nil }
        writer.finishFrame()
        return writer.bytes
    }

    /// Writes `style`; false when it carries fields this writer does not know.
    private static func write(_ style: Layoutd_V1_Style, to writer: inout ProtobufWriter) -> Bool {
        var clean = style.unknownFields.data.isEmpty
        writer.string(1, style.family)
        writer.uint32(2, style.weight)
        writer.enumeration(3, style.slant.rawValue)
        writer.float(4, style.size)
        if style.hasLetterSpacing {
            writer.message(5) { $0.float(1, style.letterSpacing.points) }
            clean = clean && style.letterSpacing.unknownFields.data.isEmpty
        }
        for feature in style.features {
            writer.message(6) { message in
                message.string(1, feature.tag)
                message.uint32(2, feature.value)
            }
            clean = clean && feature.unknownFields.data.isEmpty
        }
        writer.string(7, style.language)
        return clean
    }
}
