import Glibc

/// The files a daemon is configured with — its configuration, font files, tag styles — opened
/// so that none can hang it or exhaust its memory: opened with `O_NONBLOCK`, so a FIFO
/// does not wait for a writer; refused unless `fstat` says a regular file (a link to /dev/zero or
/// a FIFO is not one); refused past a size cap, before a byte is read. Only /dev/null passes as
/// an empty file, as `--config /dev/null` says "no configuration file". Messages say "it": the
/// caller names the file and what it is for.
public enum RegularFile {
    /// The whole file, at most `maxBytes` of it.
    public static func read(_ path: String, maxBytes: Int) throws(LayoutError) -> [UInt8] {
        let (fd, size) = try open(path, maxBytes: maxBytes)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            // SAFETY: `read` writes at most the room left after `filled`, inside the array.
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw LayoutError(.notFound, "cannot read it: \(String(cString: strerror(errno)))", field: "") }
            if got == 0 { break }
            filled += got
        }
        // One byte past the size it had when opened: a file still growing is refused too.
        guard filled <= maxBytes else { throw tooLarge(bytes: filled, maxBytes: maxBytes) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// An open descriptor on a regular file (or /dev/null) and its size.
    package static func open(_ path: String, maxBytes: Int) throws(LayoutError) -> (Int32, Int) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw LayoutError(.notFound, "cannot open it: \(String(cString: strerror(errno)))", field: "") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw LayoutError(.notFound, "cannot read it: \(String(cString: strerror(errno)))", field: "")
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFCHR && info.st_rdev == nullDevice { return (fd, 0) }
        guard kind == S_IFREG else {
            close(fd)
            throw LayoutError(.invalidArgument, "it is \(describe(kind)), not a regular file", field: "")
        }
        // Reads block from here on: a regular file never waits on a writer.
        _ = fcntl(fd, F_SETFL, O_RDONLY)
        guard info.st_size <= maxBytes else {
            close(fd)
            throw tooLarge(bytes: Int(info.st_size), maxBytes: maxBytes)
        }
        return (fd, Int(info.st_size))
    }

    /// /dev/null's device number, major 1 minor 3 in Linux's encoding (glibc's makedev is a macro).
    private static let nullDevice: UInt = 1 << 8 | 3

    private static func tooLarge(bytes: Int, maxBytes: Int) -> LayoutError {
        LayoutError(.resourceExhausted, "it is \(bytes) bytes or more; at most \(maxBytes) are read", field: "")
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }
}
