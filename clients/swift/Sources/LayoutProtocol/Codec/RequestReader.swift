/// The readers of the frequent requests, behind one pass over the envelope: a layout request,
/// a justify request or a document edit; nil for anything else, which swift-protobuf decodes.
public enum RequestReader {
    public static func envelope(_ bytes: UnsafeRawBufferPointer) -> Layoutd_V1_Envelope? {
        ProtobufReader.envelope(bytes, bodyFields: (12, 20, 36)) { field, reader in
            switch field {
            case 12: LayoutRequestReader.layoutRequest(&reader).map { .layout($0) }
            case 20: JustifyRequestReader.justifyRequest(&reader).map { .justify($0) }
            default: DocumentEditReader.editDocumentRequest(&reader).map { .editDocument($0) }
            }
        }
    }
}
