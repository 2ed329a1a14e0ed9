import Foundation
import Testing

/// layoutctl's arguments as people type them: negative numbers after a space, pictures to
/// standard output, and the truncation token that was used.
@Suite(.serialized) struct LayoutctlArgumentTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    func layoutctl(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try run(Daemon.binary("layoutctl"), arguments + ["--socket", daemon.socketPath])
    }

    @Test func negativeNumbersFollowTheirOptionAfterASpace() throws {
        let spaced = try layoutctl(["layout", "--width", "200", "--letter-spacing", "-0.5", "Tight letters"])
        let joined = try layoutctl(["layout", "--width", "200", "--letter-spacing=-0.5", "Tight letters"])
        #expect(spaced.status == 0, "\(spaced.err)")
        #expect(spaced.out == joined.out)
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-rotate-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: picture) }
        let rotated = try layoutctl(["layout", "--width", "300", "--frame", "400x400", "--rotate", "-8", "-o", picture, "Tilted"])
        #expect(rotated.status == 0, "\(rotated.err)")
        let tags = try layoutctl(["tags", "reset", "--angles", "-30,30"])
        for refusal in ["Unknown option", "Missing value", "is invalid"] {
            #expect(!tags.err.contains(refusal), "\(tags.err)")
        }
        let wrong = try layoutctl(["tags", "reset", "--angle", "-30,30"])  // and a misspelt option is still refused
        #expect(wrong.status != 0 && wrong.err.contains("Error:"), "\(wrong.err)")
    }

    @Test func aPictureGoesToStandardOutputWithAFormat() throws {
        let png = try layoutctl(["layout", "--width", "200", "-o", "-", "--format", "png", "To a pipe"])
        #expect(png.status == 0, "\(png.err)")
        #expect(png.out.dropFirst().hasPrefix("PNG\r\n") && png.out.contains("IHDR"), "not a PNG on standard output")
        #expect(png.err.contains("wrote standard output (image/png"), "\(png.err)")
        let svg = try layoutctl(["typemode", "--width", "300", "-o", "-", "--format", "svg", "Type\nMode"])
        #expect(svg.status == 0 && svg.out.hasPrefix("<?xml") && svg.out.contains("<svg"), "\(svg.err)")
        let unnamed = try layoutctl(["layout", "--width", "200", "-o", "-", "No format"])
        #expect(unnamed.status != 0 && unnamed.err.contains("-o - needs --format png, svg or pdf"), "\(unnamed.err)")
    }

    @Test func theTableShowsTheTruncationTokenUsed() throws {
        let text = "The quick brown fox jumps over the lazy dog, again and again and again."
        let custom = try layoutctl(["layout", "--width", "120", "--max-lines", "1", "--token", " [more]", text])
        #expect(custom.status == 0, "\(custom.err)")
        let first = custom.out.split(separator: "\n").dropFirst().first ?? ""
        #expect(first.hasSuffix(" [more]") && !first.contains("…"), "\(first)")
        let plain = try layoutctl(["layout", "--width", "120", "--max-lines", "1", text])
        #expect((plain.out.split(separator: "\n").dropFirst().first ?? "").hasSuffix("…"), "\(plain.out)")
    }
}
