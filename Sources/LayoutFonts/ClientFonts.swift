import LayoutEngine

/// A font a client sends as bytes (a brand's face, a user's): laid out beside the loaded ones for
/// one request or for the rest of a connection, never written to disk.
public struct ClientFont: Sendable {
    /// The family spans name it by; empty takes the font's own family name.
    public var family: String
    /// An OpenType, TrueType or collection file's bytes, held once: by whoever keeps the font
    /// (a connection's registrations) and by the faces made from it alike.
    public let bytes: FontBytes
    /// The faces of a collection to use, by index from 0, in this order; empty: every face.
    public var faceIndices: [Int]

    public init(family: String, bytes: FontBytes, faceIndices: [Int] = []) {
        self.family = family
        self.bytes = bytes
        self.faceIndices = faceIndices
    }

    public init(family: String, bytes: [UInt8], faceIndices: [Int] = []) {
        self.init(family: family, bytes: FontBytes(bytes), faceIndices: faceIndices)
    }

    /// At most this many faces in one file (a collection): each costs a coverage scan.
    public static let maxFaces = 64
    /// Outside these, a font's em is not a design a text could use (OpenType says 16…16,384).
    static let unitsPerEm: ClosedRange<Int32> = 16...16_384
}

extension FontRegistry {
    /// This registry with `clientFonts` beside its own: their faces numbered after this
    /// registry's, their families named as the client asks and shadowing a loaded family of the
    /// same name, the fallback order unchanged. Every face must pass HarfBuzz's and FreeType's
    /// reading (the table directory whole, FreeType opening it, a sane em, a cmap), else the
    /// whole call fails naming the font (`field`, e.g. "fonts[1]") and why.
    public func adding(_ clientFonts: [ClientFont], field: String) throws(LayoutError) -> FontRegistry {
        var added: [Font] = []
        for (index, client) in clientFonts.enumerated() {
            let name = "\(field)[\(index)]"
            let label = client.family.isEmpty ? "client font \(index)" : "client font \"\(client.family)\""
            guard client.bytes.count > 0 else { throw LayoutError(.invalidArgument, "\(label) has no bytes", field: name + ".data") }
            guard client.family.utf8.count <= 256 else {
                throw LayoutError(.invalidArgument, "a family name is at most 256 bytes", field: name + ".family")
            }
            let blob = client.bytes.blob
            let faceCount = FontBlobs.faceCount(blob)
            guard faceCount <= ClientFont.maxFaces else {
                throw LayoutError(.invalidArgument, "\(label) holds \(faceCount) faces; at most \(ClientFont.maxFaces)",
                                  field: name + ".data")
            }
            for (k, faceIndex) in client.faceIndices.enumerated() {
                let field = name + ".face_indices[\(k)]"
                guard faceIndex >= 0 && faceIndex < max(faceCount, 1) else {
                    throw LayoutError(.invalidArgument, "\(label) holds \(faceCount) face\(faceCount == 1 ? "" : "s"); there is no face \(faceIndex)",
                                      field: field)
                }
                guard !client.faceIndices[..<k].contains(faceIndex) else {
                    throw LayoutError(.invalidArgument, "face \(faceIndex) of \(label) is asked for twice", field: field)
                }
            }
            var problems: [String] = []
            let faces: [Font]
            do {
                faces = try FontFile.faces(of: client.bytes, path: label, firstID: UInt32(fonts.count + added.count),
                                           family: client.family.isEmpty ? nil : client.family,
                                           only: client.faceIndices.isEmpty ? nil : client.faceIndices, problems: &problems)
            } catch {
                throw LayoutError(.invalidArgument, "\(label) is not a font HarfBuzz can read", field: name + ".data")
            }
            if let problem = problems.first {
                throw LayoutError(.invalidArgument, "\(label) is damaged: \(problem)", field: name + ".data")
            }
            for face in faces {
                guard ClientFont.unitsPerEm.contains(face.unitsPerEm) else {
                    throw LayoutError(.invalidArgument, "\(label) has \(face.unitsPerEm) units per em; a font has 16 to 16,384",
                                      field: name + ".data")
                }
                guard face.coverageCount > 0 else {
                    throw LayoutError(.invalidArgument, "\(label) maps no character (no usable cmap)", field: name + ".data")
                }
            }
            added += faces
        }
        return FontRegistry(fonts: fonts + added, defaultFamily: defaultFamily, fallbackFamilies: fallbackFamilies,
                            shadowedBy: self.clientFonts + added, instanceShare: instanceShare)
    }
}

/// A font file's bytes in one HarfBuzz blob, copied in once: faces made from it reference the
/// blob, so the bytes live as long as the last face or holder and are never copied again.
// @unchecked Sendable: the blob is immutable once made (HarfBuzz blobs are thread-safe to read
// and to reference), and destroyed once, here.
public final class FontBytes: @unchecked Sendable {
    package let blob: OpaquePointer

    /// Takes the caller's reference to `blob`.
    package init(taking blob: OpaquePointer) { self.blob = blob }

    /// Copies `bytes` into a new blob.
    public convenience init(_ bytes: UnsafeRawBufferPointer) { self.init(taking: Self.copy(bytes)) }

    public convenience init(_ bytes: [UInt8]) { self.init(taking: bytes.withUnsafeBytes(Self.copy)) }

    private static func copy(_ bytes: UnsafeRawBufferPointer) -> OpaquePointer { FontBlobs.copying(bytes) }

    deinit { FontBlobs.destroy(blob) }

    /// How many bytes.
    public var count: Int { FontBlobs.length(blob) }
}
