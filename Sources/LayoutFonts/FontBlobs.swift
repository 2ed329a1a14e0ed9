import CHarfBuzz

/// A font file's bytes as HarfBuzz holds them (`hb_blob_t`): reference-counted, immutable once
/// made, safe to read and reference from any thread. The engine keeps the pointer; these are
/// the only calls it makes on it.
package enum FontBlobs {
    /// A new blob holding a copy of `bytes`.
    package static func copying(_ bytes: UnsafeRawBufferPointer) -> OpaquePointer {
        bytes.withMemoryRebound(to: CChar.self) {
            hb_blob_create($0.baseAddress, UInt32(clamping: $0.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)!
        }
    }

    /// A blob over `size` bytes mapped at `address`, which `release(address, size)` gives back
    /// when the last reference goes; nil when HarfBuzz could not take all of them (it then
    /// has released them already).
    package static func mapped(_ address: UnsafeMutableRawPointer, size: Int,
                               release: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void,
                               releaseData: UnsafeMutableRawPointer) -> OpaquePointer? {
        let blob = hb_blob_create(address.assumingMemoryBound(to: CChar.self), UInt32(size), HB_MEMORY_MODE_READONLY, releaseData, release)
        guard let blob, hb_blob_get_length(blob) == UInt32(size) else {
            if let blob { hb_blob_destroy(blob) }
            return nil
        }
        return blob
    }

    package static func reference(_ blob: OpaquePointer) -> OpaquePointer { hb_blob_reference(blob)! }

    package static func destroy(_ blob: OpaquePointer) { hb_blob_destroy(blob) }

    package static func length(_ blob: OpaquePointer) -> Int { Int(hb_blob_get_length(blob)) }

    /// The blob's bytes, valid while it lives; nil for an empty one.
    // SAFETY: a blob's data is immutable and stays put until its last reference goes; callers
    // read it while they hold the blob (`SfntDirectory`, `CmapSubtables` inside their `defer`).
    package static func bytes(_ blob: OpaquePointer) -> UnsafeRawBufferPointer? {
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length) else { return nil }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: Int(length))
    }

    /// How many faces the file holds (a collection several, a font one, anything else none).
    package static func faceCount(_ blob: OpaquePointer) -> Int { Int(hb_face_count(blob)) }
}
