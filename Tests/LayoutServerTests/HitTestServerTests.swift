import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Hit-testing through the daemon: the answers agree with each other (a caret's centre lands
/// back on its offset, a selection covers the carets at its ends) for every kind of source, and
/// bad questions are refused by name.
@Suite struct HitTestServerTests {
    static func request(_ text: String, width: Float = 300, configure: (inout Layoutd_V1_LayoutRequest) -> Void = { _ in })
        -> Layoutd_V1_HitTestRequest {
        var layout = Layoutd_V1_LayoutRequest()
        layout.text = text
        layout.width = width
        layout.defaultStyle.size = 20
        configure(&layout)
        return .with { $0.layout = layout }
    }

    static func centre(_ r: Layoutd_V1_Rect) -> Layoutd_V1_Point { .with { $0.x = r.x + r.width / 2; $0.y = r.y + r.height / 2 } }

    /// Asks for every offset's caret, then hit-tests each caret's centre: each comes back.
    func roundTrip(_ client: LayoutClient, _ base: Layoutd_V1_HitTestRequest) throws {
        let length = base.layout.text.utf16.count
        var ask = base
        ask.carets = (0...length).map { offset in .with { $0.offset = UInt32(offset) } }
        guard case .hitTestReply(let carets) = try client.request(.hitTest(ask)) else { Issue.record("no reply"); return }
        #expect(carets.carets.count == length + 1)
        var back = base
        back.points = carets.carets.map { Self.centre($0.primary) }
        guard case .hitTestReply(let hits) = try client.request(.hitTest(back)) else { Issue.record("no reply"); return }
        #expect(hits.hits.map { Int($0.position.offset) } == Array(0...length))
    }

    @Test func caretsHitBackInPlainMixedAndVerticalLayouts() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        try roundTrip(client, Self.request("Layout to the left and right: שלום עולם, then more words."))
        try roundTrip(client, Self.request("Columns down the page, 縦書き", width: 200) {
            $0.writingMode = .verticalRl
            $0.height = 150
        })
        try roundTrip(client, Self.request("Around a picture, a long caption that needs several lines to flow past it.", width: 200) {
            $0.exclusions = [.with { $0.shape.ellipse = .with { $0.x = 120; $0.y = 0; $0.width = 80; $0.height = 60 } }]
        })
    }

    @Test func linkedContainersAnswerToo() throws {
        let daemon = try Daemon()
        var ask = Self.request("Text that flows from one column into the next and on into a third column of its own.")
        ask.layout.width = 0
        ask.layout.containers = (0..<3).map { k in .with { $0.origin = .with { $0.x = Float(k) * 110 }; $0.width = 100; $0.height = 150 } }
        try roundTrip(daemon.client(), ask)
    }

    @Test func aTypeModeStoryAnswersToo() throws {
        let daemon = try Daemon()
        var ask = Layoutd_V1_HitTestRequest()
        ask.justify = .with { $0.text = "so\nHAPPY"; $0.width = 300 }
        ask.selections = [.with { $0.start = 3; $0.length = 5 }]
        ask.carets = [.with { $0.offset = 3 }]
        guard case .hitTestReply(let reply) = try daemon.client().request(.hitTest(ask)) else { Issue.record("no reply"); return }
        let rect = try #require(reply.selections.first?.rects.first)
        #expect(reply.selections[0].rects.count == 1)
        #expect(abs(rect.width - 300) < 1, "HAPPY fills the width")
        #expect(reply.carets[0].lineIndex == 1)
    }

    @Test func theWordLineAndParagraphAroundAnOffset() throws {
        let daemon = try Daemon()
        var ask = Self.request("Say hello to ภาษาไทยง่าย and friends\nSecond paragraph", width: 150)
        ask.around = [5, 16, 45]
        guard case .hitTestReply(let reply) = try daemon.client().request(.hitTest(ask)) else { Issue.record("no reply"); return }
        let units = Array(ask.layout.text.utf16)
        func text(_ r: Layoutd_V1_Range) -> String { String(decoding: units[Int(r.start)..<Int(r.start + r.length)], as: UTF16.self) }
        #expect(reply.around.map { text($0.word) } == ["hello", "ภาษา", "paragraph"])
        #expect(text(reply.around[0].line).hasPrefix("Say hello"))
        #expect(text(reply.around[0].paragraph) == "Say hello to ภาษาไทยง่าย and friends\n")
        #expect(text(reply.around[2].paragraph) == "Second paragraph")
        #expect(text(reply.around[0].sentence) == "Say hello to ภาษาไทยง่าย and friends\n")
    }

    /// Chinese and Japanese words through the daemon come from ICU's dictionary.
    @Test func chineseAndJapaneseWordsAroundAnOffset() throws {
        let daemon = try Daemon()
        var ask = Self.request("我们今天去北京。日本語の文章", width: 300)
        ask.around = [1, 6, 9, 13]
        guard case .hitTestReply(let reply) = try daemon.client().request(.hitTest(ask)) else { Issue.record("no reply"); return }
        let units = Array(ask.layout.text.utf16)
        func text(_ r: Layoutd_V1_Range) -> String { String(decoding: units[Int(r.start)..<Int(r.start + r.length)], as: UTF16.self) }
        #expect(reply.around.map { text($0.word) } == ["我们", "北京", "日本語", "文章"])
    }

    /// Arrow keys through the daemon: right across "Say مرحبا now" visits every offset, the
    /// Arabic word's backwards; forward visits them in order.
    @Test func arrowKeysStepThroughMixedText() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var position = Layoutd_V1_TextPosition()
        var visited = [0]
        for _ in 0..<30 {
            var ask = Self.request("Say مرحبا now")
            ask.moves = [.with { $0.from = position; $0.direction = .right }]
            guard case .hitTestReply(let reply) = try client.request(.hitTest(ask)) else { Issue.record("no reply"); return }
            if reply.moved[0] == position { break }
            position = reply.moved[0]
            visited.append(Int(position.offset))
        }
        #expect(visited == [0, 1, 2, 3, 4, 9, 8, 7, 6, 5, 4, 9, 10, 11, 12, 13])
        var ask = Self.request("Say مرحبا now")
        ask.moves = [.with { $0.from.offset = 4; $0.direction = .forward }, .with { $0.from.offset = 4; $0.direction = .backward }]
        guard case .hitTestReply(let reply) = try client.request(.hitTest(ask)) else { Issue.record("no reply"); return }
        #expect(reply.moved.map(\.offset) == [5, 3])
    }

    @Test func badQuestionsAreRefusedByName() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        func refusal(_ request: Layoutd_V1_HitTestRequest) throws -> Layoutd_V1_Error? {
            if case .error(let error) = try client.call(.hitTest(request)).body { return error }
            return nil
        }
        var past = Self.request("four")
        past.carets = [.with { $0.offset = 5 }]
        #expect(try refusal(past)?.field == "hit_test.carets[0].offset")
        var outside = Self.request("four")
        outside.selections = [.with { $0.start = 2; $0.length = 3 }]
        #expect(try refusal(outside)?.field == "hit_test.selections[0]")
        var infinite = Self.request("four")
        infinite.points = [.with { $0.x = .infinity }]
        #expect(try refusal(infinite)?.field == "hit_test.points[0]")
        #expect(try refusal(Layoutd_V1_HitTestRequest())?.field == "hit_test.source")
        var aroundPast = Self.request("four")
        aroundPast.around = [0, 9]
        #expect(try refusal(aroundPast)?.field == "hit_test.around[1]")
        var movePast = Self.request("four")
        movePast.moves = [.with { $0.from.offset = 5 }]
        #expect(try refusal(movePast)?.field == "hit_test.moves[0].from.offset")
        var many = Self.request("four")
        many.points = Array(repeating: .with { $0.x = 1 }, count: 4_097)
        let tooMany = try #require(try refusal(many))
        #expect(tooMany.code == .resourceExhausted && tooMany.field == "hit_test.points")
        let lines = Array(repeating: "word", count: 500).joined(separator: "\n")
        var tooManyRects = Self.request(lines)
        tooManyRects.selections = Array(repeating: .with { $0.start = 0; $0.length = UInt32(lines.utf16.count) }, count: 40)
        let rectLimit = try #require(try refusal(tooManyRects))
        #expect(rectLimit.code == .resourceExhausted && rectLimit.field == "hit_test.selections")
        var badSource = Self.request("four", width: -1)
        badSource.points = [.init()]
        #expect(try refusal(badSource)?.field == "hit_test.layout.width")
    }
}

/// `layoutctl hit`: the layout options, then the questions; one row per answer.
@Suite struct HitCommandLineTests {
    @Test func layoutctlHitAnswersEachQuestion() throws {
        let daemon = try Daemon()
        let ctl = Daemon.binary("layoutctl")
        let text = "Say مرحبا to the world, friends"
        let done = try run(ctl, ["hit", "--socket", daemon.socketPath, "--width", "200", "--at-point", "500,40", "--caret", "4",
                                 "--caret", "19:up", "--range", "0,9", "--word", "6", "--", text])
        #expect(done.status == 0, "\(done.err)")
        let rows = done.out.split(separator: "\n").map(String.init)
        #expect(rows.count == 5)
        #expect(rows[0].hasPrefix("point 500.00,40.00  →  offset 31 on line 1"))
        #expect(rows[1].hasPrefix("caret 4  →  (") && rows[1].contains(", and ("), "a bidi boundary has two carets")
        #expect(rows[2].hasPrefix("caret 19:up  →  ("))
        #expect(rows[3].hasPrefix("range [0,9)  →  (0.00, 0.00, "))
        #expect(rows[4].hasPrefix("word 6  →  word [4,9) \"مرحبا\", sentence [0,"))
        let json = try run(ctl, ["hit", "--socket", daemon.socketPath, "--width", "200", "--json", "--caret", "0", "--", text])
        #expect(json.status == 0 && json.out.contains("\"carets\""))
        let nothing = try run(ctl, ["hit", "--socket", daemon.socketPath, "--width", "200", "--", text])
        #expect(nothing.status == 64 && nothing.err.contains("ask something"))
        let past = try run(ctl, ["hit", "--socket", daemon.socketPath, "--width", "200", "--caret", "99", "--", "x"])
        #expect(past.status == 65 && past.err.contains("hit_test.carets[0].offset"))
    }
}
