import CMimalloc
import Glibc

/// The allocator the daemon's heap comes from. layoutd links mimalloc, and an executable's
/// libraries come before the C library's in symbol lookup, so mimalloc's malloc and free serve
/// the whole process: the Swift runtime, NIO, HarfBuzz, FreeType. A layout request allocates and
/// frees a dozen blocks, several of them too large for glibc's per-thread cache
/// (docs/design.md, "The allocator"). Under a sanitizer, or with another allocator preloaded,
/// malloc is not mimalloc's: `name` says which one serves.
enum Allocator {
    static var name: String {
        let probe = malloc(16)
        defer { free(probe) }
        guard mi_is_in_heap_region(probe) else { return "the process's malloc, not mimalloc" }
        let version = Int(mi_version())  // 209 for 2.0.9
        return "mimalloc \(version / 100).\(version / 10 % 10).\(version % 10)"
    }
}
