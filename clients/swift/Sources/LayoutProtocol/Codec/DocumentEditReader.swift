/// Reads an envelope carrying an edit_document request without swift-protobuf's generic decoder,
/// as `LayoutRequestReader` reads a layout request: a keystroke's envelope of 25 bytes cost
/// more through the merge guard's scan and swift-protobuf than its caret.
///
/// The same rules: known fields with their declared wire types, each singular message field
/// at most once; anything else gives nil and the caller decodes with swift-protobuf. Style
/// changes, rarer than typing, are left to swift-protobuf; points, carets and attachments are
/// read by it as nested messages.
enum DocumentEditReader {
    private static let varint = ProtobufReader.varint, lengthDelimited = ProtobufReader.lengthDelimited

    static func editDocumentRequest(_ reader: inout ProtobufReader) -> Layoutd_V1_EditDocumentRequest? {
        var request = Layoutd_V1_EditDocumentRequest()
        var edits: [Layoutd_V1_DocumentEdit] = []
        var points: [Layoutd_V1_Point] = [], carets: [Layoutd_V1_TextPosition] = []
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, varint): guard let document = reader.varint() else { return nil }; request.document = document
            case (2, lengthDelimited):
                guard var nested = reader.nested(), let edit = documentEdit(&nested) else { return nil }
                edits.append(edit)
            case (3, lengthDelimited):
                guard let point = reader.message(Layoutd_V1_Point.self) else { return nil }
                points.append(point)
            case (4, lengthDelimited):
                guard let caret = reader.message(Layoutd_V1_TextPosition.self) else { return nil }
                carets.append(caret)
            default: return nil
            }
        }
        // Set once, at the end: arrays inside the message are copied on every append.
        if !edits.isEmpty { request.edits = edits }
        if !points.isEmpty { request.points = points }
        if !carets.isEmpty { request.carets = carets }
        return request
    }

    /// A `DocumentEdit` holding a replacement, read once (a second would be merged into it).
    private static func documentEdit(_ reader: inout ProtobufReader) -> Layoutd_V1_DocumentEdit? {
        var replacement: Layoutd_V1_TextReplacement?
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag(), field == 1, type == lengthDelimited, replacement == nil,
                  var nested = reader.nested(), let read = textReplacement(&nested) else { return nil }
            replacement = read
        }
        guard let replacement else { return nil }
        var edit = Layoutd_V1_DocumentEdit()
        edit.replace = replacement
        return edit
    }

    private static func textReplacement(_ reader: inout ProtobufReader) -> Layoutd_V1_TextReplacement? {
        var replacement = Layoutd_V1_TextReplacement()
        var attachments: [Layoutd_V1_Attachment] = []
        var seen: UInt16 = 0
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, lengthDelimited) where ProtobufReader.firstTime(1, &seen):
                guard var nested = reader.nested(), let range = nested.range() else { return nil }
                replacement.range = range
            case (2, lengthDelimited): guard let text = reader.string() else { return nil }; replacement.text = text
            case (3, lengthDelimited):
                guard let attachment = reader.message(Layoutd_V1_Attachment.self) else { return nil }
                attachments.append(attachment)
            default: return nil
            }
        }
        if !attachments.isEmpty { replacement.attachments = attachments }
        return replacement
    }
}
