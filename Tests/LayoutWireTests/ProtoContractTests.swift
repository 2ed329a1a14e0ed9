import Foundation
import Testing
import TestSupport

/// The contract's own checks (scripts/lint-proto.sh): every message, field and enum value has
/// a comment and the names follow protolint's rules (departures in proto/.protolint.yaml), and
/// nothing the last released proto promised has changed. Each check is shown failing too.
@Suite struct ProtoContractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/lint-proto.sh").path

    @Test func theProtoFilesPassTheLintAndKeepTheReleasedContract() throws {
        let done = try runToCompletion("/bin/bash", [Self.script], within: 120)
        #expect(done.status == 0, "\(done.out)\(done.err)")
        #expect(done.out.contains("protolint: no findings"))
        #expect(done.out.contains("keeps every promise of layoutd-v1-0.2.0.binpb"))
    }

    /// A copy of proto/ with `edit` applied to one file: the check must fail, saying `expected`.
    func expectFailure(in file: String, _ edit: (String) -> String, saying expected: String) throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("proto-\(getpid())-\(UUID().uuidString.prefix(6))")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("proto"), to: copy)
        let path = copy.appendingPathComponent("layoutd/v1/\(file)")
        let text = try String(contentsOf: path, encoding: .utf8)
        let edited = edit(text)
        #expect(edited != text, "the edit changed nothing")
        try edited.write(to: path, atomically: true, encoding: .utf8)
        let done = try runToCompletion("/bin/bash", [Self.script, copy.path], within: 120)
        #expect(done.status != 0)
        #expect((done.out + done.err).contains(expected), "\(done.out)\(done.err)")
    }

    @Test func aFieldWithoutACommentFailsTheLint() throws {
        try expectFailure(in: "geometry.proto", {
            $0.replacingOccurrences(of: "  // The first code unit, counted from 0.\n", with: "")
        }, saying: "Field \"start\" should have a comment")
    }

    @Test func aRenumberedFieldFailsTheCompatibilityCheck() throws {
        try expectFailure(in: "geometry.proto", {
            $0.replacingOccurrences(of: "uint32 length = 2;", with: "uint32 length = 3;")
        }, saying: "breaking: layoutd.v1.Range.length = 2 was removed without reserving its number and name")
    }

    @Test func aRenamedEnumValueFailsTheCompatibilityCheck() throws {
        try expectFailure(in: "layout.proto", {
            $0.replacingOccurrences(of: "ALIGNMENT_CENTER = 3;", with: "ALIGNMENT_CENTRE = 3;")
        }, saying: "breaking: layoutd.v1.Alignment.ALIGNMENT_CENTER = 3 was renamed ALIGNMENT_CENTRE")
    }
}
