import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// No file the daemon reads can hang it or exhaust its memory (issue 17): a configuration that is
/// a FIFO, a link to /dev/zero or 200 MB is refused by name at start-up and at a reload; a FIFO in
/// a font directory is skipped; every thread count `--check-config` accepts starts.
@Suite struct FileSafetyTests {
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func checkConfigRefusesAFIFOALinkToDevZeroAndAHugeFileAtOnce() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo.conf").path
        let zero = directory.appendingPathComponent("zero.conf").path
        let huge = directory.appendingPathComponent("huge.conf").path
        #expect(mkfifo(fifo, 0o600) == 0 && symlink("/dev/zero", zero) == 0)
        #expect(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 200 << 20) == 0)
        for (path, why) in [(fifo, "it is a FIFO, not a regular file"), (zero, "it is a character device, not a regular file"),
                            (huge, "it is 209715200 bytes or more; at most 1048576 are read")] {
            let started = Date()
            let result = try run(Daemon.binary("layoutd"), ["--config", path, "--check-config"], within: 20)
            #expect(result.status == 78, "\(path): \(result.status) \(result.err)")
            #expect(result.err.contains("cannot read the configuration file \(path): \(why)"), "\(result.err)")
            #expect(Date().timeIntervalSince(started) < 10)
        }
    }

    @Test func threadsCheckConfigAcceptsStartAndOthersAreRefused() throws {
        let refused = try run(Daemon.binary("layoutd"), ["--config", "/dev/null", "--threads", "100000", "--check-config"], within: 30)
        #expect(refused.status == 78 && refused.err.contains("threads must be in 1...256"), "\(refused.err)")
        let accepted = try run(Daemon.binary("layoutd"), ["--config", "/dev/null", "--threads", "256", "--check-config"], within: 30)
        #expect(accepted.status == 0, "\(accepted.err)")
        let daemon = try Daemon(arguments: ["--threads", "256"])
        #expect(try daemon.client().call(.layout(layoutRequest("256 threads"))).layoutReply != nil)
        #expect(daemon.stop() == 0, "\(daemon.stderr.text)")
    }

    /// A reload meets a configuration turned into a link to /dev/zero, and a FIFO among the
    /// fonts: it fails (or skips) by name at once, the old set serves, and the next reload works.
    @Test func aReloadRefusesFilesThatWouldHangIt() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fonts = directory.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ReloadTests.notoSans, toPath: fonts.appendingPathComponent("NotoSans-Regular.ttf").path)
        let config = directory.appendingPathComponent("layoutd.conf")
        try Data("no-default-fonts = yes\nfont = \(fonts.path)\n".utf8).write(to: config)
        let daemon = try Daemon(arguments: ["--config", config.path, "--threads", "2"])
        let client = try daemon.client()
        #expect(try ReloadTests.faces(client) == 1)

        // A FIFO named like a font in the directory: skipped with a warning; the reload succeeds.
        #expect(mkfifo(fonts.appendingPathComponent("stuck.ttf").path, 0o600) == 0)
        try FileManager.default.copyItem(atPath: ReloadTests.notoSerif, toPath: fonts.appendingPathComponent("NotoSerif-Regular.ttf").path)
        var started = Date()
        let reloaded = try client.call(.reload(.init()))
        #expect(reloaded.errorReply == nil, "\(reloaded)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(try ReloadTests.faces(client) == 2)
        #expect(daemon.stderr.text.contains("stuck.ttf is not a regular file"), "\(daemon.stderr.text)")

        // An oversize file in the directory (sparse, 8 GB): skipped by name with the cap.
        let huge = fonts.appendingPathComponent("huge.ttf").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 8 << 30) == 0)
        let withHuge = try client.call(.reload(.init()))
        #expect(withHuge.errorReply == nil, "\(withHuge)")
        #expect(try ReloadTests.faces(client) == 2)
        #expect(daemon.stderr.text.contains("huge.ttf is 8589934592 bytes; at most 134217728 are read"), "\(daemon.stderr.text)")
        let restarted = try Daemon(arguments: ["--config", config.path, "--threads", "1"])
        #expect(try ReloadTests.faces(restarted.client()) == 2, "a daemon starts beside an oversize font file")
        try FileManager.default.removeItem(atPath: huge)

        // A FIFO named directly as a font: the reload fails by name, at once.
        let fifo = directory.appendingPathComponent("direct.otf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try Data("no-default-fonts = yes\nfont = \(fonts.path)\nfont = \(fifo)\n".utf8).write(to: config)
        started = Date()
        let named = try client.call(.reload(.init())).errorReply
        #expect(named?.code == .failedPrecondition && named?.message.contains("\(fifo): it is a FIFO") == true, "\(String(describing: named))")
        #expect(Date().timeIntervalSince(started) < 10)

        // The configuration becomes a link to /dev/zero: refused, not read until memory runs out.
        try FileManager.default.removeItem(at: config)
        #expect(symlink("/dev/zero", config.path) == 0)
        kill(daemon.process.processIdentifier, SIGHUP)
        let refused = try client.call(.reload(.init())).errorReply
        #expect(refused?.code == .failedPrecondition && refused?.message.contains("a character device, not a regular file") == true,
                "\(String(describing: refused))")

        // Layouts still run, and a good file reloads again.
        #expect(try client.call(.layout(layoutRequest("still serving"))).layoutReply != nil)
        try FileManager.default.removeItem(at: config)
        try Data("no-default-fonts = yes\nfont = \(ReloadTests.notoSans)\n".utf8).write(to: config)
        #expect(try client.call(.reload(.init())).errorReply == nil)
        #expect(try ReloadTests.faces(client) == 1)
        #expect(daemon.stop() == 0, "\(daemon.stderr.text)")
    }
}
