import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// CSS `line-break` and `word-break` through the daemon and layoutctl: Korean kept whole between
/// spaces, Japanese broken between phrases, and bad names refused.
@Suite struct LineBreakStyleServerTests {
    static let korean = "오늘은 친구들과 한강에서 자전거를 탔어요. 날씨가 정말 좋았어요!"

    /// The text of each line.
    static func lines(_ reply: Layoutd_V1_LayoutReply, _ text: String) -> [String] {
        let units = Array(text.utf16)
        return reply.lines.map { String(decoding: units[Int($0.range.start)..<Int($0.range.start + $0.range.length)], as: UTF16.self) }
    }

    @Test func keepAllEndsKoreanLinesAtSpacesAndAutoPhraseBreaksJapaneseBetweenPhrases() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = layoutRequest(Self.korean, width: 130, size: 16)
        let normal = Self.lines(try #require(try client.call(.layout(request)).layoutReply), Self.korean)
        #expect(normal.dropLast().contains { !$0.hasSuffix(" ") })
        request.defaultStyle.wordBreak = .keepAll
        let kept = Self.lines(try #require(try client.call(.layout(request)).layoutReply), Self.korean)
        #expect(kept.count > 2 && kept.dropLast().allSatisfy { $0.hasSuffix(" ") }, "\(kept)")
        // Android's example: a line a little wider than 自由が丘で holds one phrase.
        let japanese = "今日は自由が丘で焼き鳥を食べます。"
        var phrases = layoutRequest(japanese, width: 110, size: 20)
        phrases.defaultStyle.language = "ja"
        phrases.defaultStyle.wordBreak = .autoPhrase
        let phrased = Self.lines(try #require(try client.call(.layout(phrases)).layoutReply), japanese)
        #expect(phrased == ["今日は", "自由が丘で", "焼き鳥を", "食べます。"])
        // A bad value is named, and the daemon goes on.
        request.defaultStyle.lineBreak = .UNRECOGNIZED(40)
        #expect(try client.call(.layout(request)).errorReply?.field == "layout.default_style.line_break")
        #expect(try client.call(.layout(layoutRequest("still here"))).layoutReply != nil)
    }

    @Test func layoutctlTakesTheBreakingOptionsAndSpanKeys() throws {
        let daemon = try Daemon()
        let json = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "130", "--size", "16", "--json",
                                                        "--word-break", "keep-all", "--line-break", "loose", Self.korean])
        #expect(json.status == 0, "\(json.err)")
        let kept = Self.lines(try Layoutd_V1_LayoutReply(jsonString: json.out), Self.korean)
        #expect(kept.count > 2 && kept.dropLast().allSatisfy { $0.hasSuffix(" ") }, "\(kept)")
        let anywhere = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "60", "--json",
                                                            "--span", "0:30:line-break=anywhere", "Unbreakablewordsgoonforeveralong"])
        #expect(anywhere.status == 0, "\(anywhere.err)")
        #expect(try Layoutd_V1_LayoutReply(jsonString: anywhere.out).lines.count > 3)
        let bad = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--word-break", "keep", "x"])
        #expect(bad.status != 0 && bad.err.contains("--word-break must be"), "\(bad.err)")
    }
}
