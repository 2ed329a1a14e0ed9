/// Which of the plain readers a frame can be for, found from the envelope's first field other
/// than its request id and deadline. Each plain reader accepts only an envelope whose fields
/// besides those two are its own body, so a frame whose first such field is another body (a
/// render, a hello) is none of theirs: routing on it reads the frame's first bytes once,
/// where trying each reader in turn started the envelope again for each.
public enum PlainBody: Equatable, Sendable {
    case layout, justify, edit, batch
    /// Any other body, or none: no plain reader reads it.
    case other

    public static func of(_ frame: UnsafeRawBufferPointer) -> PlainBody {
        var reader = ProtobufReader(frame)
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return .other }
            switch (field, type) {
            case (1, ProtobufReader.varint), (2, ProtobufReader.varint):
                guard reader.varint() != nil else { return .other }
            case (PlainLayoutRequest.bodyField, _): return .layout
            case (PlainJustifyRequest.bodyField, _): return .justify
            case (PlainEditRequest.bodyField, _): return .edit
            case (PlainBatchRequest.bodyField, _): return .batch
            default: return .other
            }
        }
        return .other
    }
}
