import Foundation
import Testing
@testable import LayoutEngine
@testable import LayoutFonts

/// Files the daemon is configured with are read only when regular and small enough; nothing
/// here may block (a FIFO without a writer) or read without end (/dev/zero).
@Suite struct RegularFileTests {
    static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("regular-\(UUID().uuidString)-\(name)").path
    }

    @Test func readsARegularFileWhole() throws {
        let path = Self.scratch("a.conf")
        try Data("threads = 2\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        #expect(try RegularFile.read(path, maxBytes: 100) == Array("threads = 2\n".utf8))
        #expect(try RegularFile.read("/dev/null", maxBytes: 100) == [])
    }

    @Test func refusesWhatIsNotARegularFileAtOnce() throws {
        let fifo = Self.scratch("fifo.ttf")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let zero = Self.scratch("zero.conf")
        #expect(symlink("/dev/zero", zero) == 0)
        defer { unlink(zero) }
        for (path, kind) in [(fifo, "a FIFO"), (zero, "a character device"), ("/tmp", "a directory")] {
            #expect(throws: LayoutError(.invalidArgument, "it is \(kind), not a regular file", field: "")) {
                try RegularFile.read(path, maxBytes: 1 << 20)
            }
        }
        var problems: [String] = []
        #expect(throws: LayoutError(.notFound, "cannot read font file \(fifo): it is a FIFO, not a regular file", field: "font")) {
            try FontFile.load(path: fifo, firstID: 0, problems: &problems)
        }
    }

    @Test func refusesAFileOverItsCapBeforeReadingIt() throws {
        let path = Self.scratch("big.conf")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        #expect(truncate(path, 200 << 20) == 0)  // sparse: 200 MB that take no disk
        #expect(throws: LayoutError(.resourceExhausted, "it is 209715200 bytes or more; at most 1048576 are read", field: "")) {
            try RegularFile.read(path, maxBytes: 1 << 20)
        }
    }
}
