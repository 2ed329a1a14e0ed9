/// The readers of the frequent requests, behind one pass over the envelope: a layout request
/// or a justify request; nil for anything else, which swift-protobuf decodes.
public enum RequestReader {
    public static func envelope(_ bytes: UnsafeRawBufferPointer) -> Layoutd_V1_Envelope? {
        ProtobufReader.envelope(bytes, bodyFields: (12, 20)) { field, reader in
            field == 12 ? LayoutRequestReader.layoutRequest(&reader).map { .layout($0) }
                : JustifyRequestReader.justifyRequest(&reader).map { .justify($0) }
        }
    }
}
