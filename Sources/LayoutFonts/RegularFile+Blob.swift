import Glibc
import LayoutEngine

extension RegularFile {
    /// The file mapped read-only into a HarfBuzz blob (which unmaps it when destroyed), as
    /// `hb_blob_create_from_file` would, but only for a regular file under `maxBytes`.
    static func mapBlob(_ path: String, maxBytes: Int) throws(LayoutError) -> OpaquePointer {
        let (fd, size) = try open(path, maxBytes: maxBytes)
        defer { close(fd) }
        guard size > 0 else { throw LayoutError(.invalidArgument, "it is empty", field: "") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw LayoutError(.resourceExhausted, "cannot map it: \(String(cString: strerror(errno)))", field: "")
        }
        let mapping = UnsafeMutablePointer<(UnsafeMutableRawPointer, Int)>.allocate(capacity: 1)
        mapping.initialize(to: (address, size))
        let blob = FontBlobs.mapped(address, size: size, release: { user in
            guard let mapping = user?.assumingMemoryBound(to: (UnsafeMutableRawPointer, Int).self) else { return }
            munmap(mapping.pointee.0, mapping.pointee.1)
            mapping.deallocate()
        }, releaseData: mapping)
        guard let blob else {
            throw LayoutError(.resourceExhausted, "HarfBuzz could not take it", field: "")
        }
        return blob
    }
}
