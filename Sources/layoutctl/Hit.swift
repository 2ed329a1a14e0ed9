import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol

extension LayoutCtl {
    /// Hit-testing a layout as an editor does: where taps land, where carets stand, what a
    /// selection covers. The layout is the one `layoutctl layout` makes of the same options.
    struct Hit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hit",
            abstract: "Ask where points land in a layout, where carets stand and what selections cover.",
            discussion: "Takes every option of `layout`, plus the questions: --at-point X,Y (layout coordinates, points), "
                + "--caret N or N:up (a UTF-16 offset, upstream with :up), --range A,B (UTF-16 offsets, A to B), "
                + "--word N (the word, sentence, line and paragraph around offset N).")

        @Option(help: "A point in layout coordinates, X,Y: the offset it lands at.") var atPoint: [String] = []
        @Option(help: "A UTF-16 offset, N or N:up for the upstream place: its caret rects.") var caret: [String] = []
        @Option(help: "A UTF-16 range, A,B: its selection rects.") var range: [String] = []
        @Option(help: "A UTF-16 offset: the word, sentence, line and paragraph around it.") var word: [UInt32] = []
        @Option(help: "An arrow key, N:forward, N:backward, N:right or N:left (N:up... for an upstream caret: N:up:right).")
        var move: [String] = []
        @OptionGroup var layout: Layout

        func run() throws {
            if atPoint.isEmpty && caret.isEmpty && range.isEmpty && word.isEmpty && move.isEmpty {
                // Said here rather than by a ValidationError, whose usage line would name the
                // layout options' command instead of this one.
                FileHandle.standardError.write(Data("layoutctl hit: ask something: --at-point X,Y, --caret N, --range A,B or --word N\n".utf8))
                throw ExitCode(ExitStatus.usage)
            }
            var request = Layoutd_V1_HitTestRequest()
            request.layout = try layout.makeRequest()
            request.points = try atPoint.map { spec in
                let parts = spec.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2, parts.allSatisfy(\.isFinite) else { throw ValidationError("--at-point takes X,Y, not \(spec)") }
                return .with { $0.x = parts[0]; $0.y = parts[1] }
            }
            request.carets = try caret.map { spec in
                let parts = spec.split(separator: ":", maxSplits: 1)
                guard let offset = UInt32(parts[0]), parts.count == 1 || parts[1] == "up" else {
                    throw ValidationError("--caret takes N or N:up, not \(spec)")
                }
                return .with { $0.offset = offset; $0.affinity = parts.count == 2 ? .upstream : .downstream }
            }
            request.selections = try range.map { spec in
                let parts = spec.split(separator: ",").compactMap { UInt32($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2, parts[0] <= parts[1] else { throw ValidationError("--range takes A,B with A <= B, not \(spec)") }
                return .with { $0.start = parts[0]; $0.length = parts[1] - parts[0] }
            }
            request.around = word
            request.moves = try move.map { spec in
                var parts = spec.split(separator: ":").map(String.init)
                let directions: [String: Layoutd_V1_MoveDirection] = ["forward": .forward, "backward": .backward, "right": .right, "left": .left]
                guard parts.count >= 2, let offset = UInt32(parts.removeFirst()), let direction = directions[parts.removeLast()],
                      parts.isEmpty || parts == ["up"] else {
                    throw ValidationError("--move takes N:forward, N:backward, N:right or N:left (N:up:right for an upstream caret), not \(spec)")
                }
                return .with { $0.from.offset = offset; $0.from.affinity = parts.isEmpty ? .downstream : .upstream; $0.direction = direction }
            }
            let connection = layout.connection
            try connection.reportingFailures {
                guard case .hitTestReply(let reply) = try connection.client().request(.hitTest(request)) else {
                    throw ClientError.protocolViolation("expected a hit-test reply")
                }
                if connection.json { print(try StableJSON.encode(reply)); return }
                print(HitTable.render(request, reply))
            }
        }
    }
}

/// The answers, one row per question.
enum HitTable {
    static func render(_ request: Layoutd_V1_HitTestRequest, _ reply: Layoutd_V1_HitTestReply) -> String {
        var rows: [String] = []
        for (point, hit) in zip(request.points, reply.hits) {
            rows.append(String(format: "point %.2f,%.2f  →  offset %d%@ on line %d", point.x, point.y, hit.position.offset,
                               hit.position.affinity == .upstream ? " (upstream)" : "", hit.lineIndex))
        }
        for (position, caret) in zip(request.carets, reply.carets) {
            var row = "caret \(position.offset)\(position.affinity == .upstream ? ":up" : "")  →  " + Self.rect(caret.primary)
                + " on line \(caret.lineIndex)"
            if caret.hasSecondary { row += ", and " + Self.rect(caret.secondary) }
            rows.append(row)
        }
        for (range, selection) in zip(request.selections, reply.selections) {
            rows.append("range [\(range.start),\(range.start + range.length))  →  "
                        + (selection.rects.isEmpty ? "nothing shown" : selection.rects.map(Self.rect).joined(separator: ", ")))
        }
        let units = Array(request.layout.text.utf16)
        func shown(_ r: Layoutd_V1_Range) -> String {
            let start = min(Int(r.start), units.count), end = min(Int(r.start + r.length), units.count)
            return "[\(start),\(end)) \"" + String(decoding: units[start..<end], as: UTF16.self).replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        for (move, moved) in zip(request.moves, reply.moved) {
            let names: [Layoutd_V1_MoveDirection: String] = [.forward: "forward", .backward: "backward", .right: "right", .left: "left"]
            rows.append("move \(move.from.offset)\(move.from.affinity == .upstream ? ":up" : ""):\(names[move.direction] ?? "?")  →  "
                        + "\(moved.offset)\(moved.affinity == .upstream ? " (upstream)" : "")")
        }
        for (offset, ranges) in zip(request.around, reply.around) {
            rows.append("word \(offset)  →  word \(shown(ranges.word)), sentence \(shown(ranges.sentence)), line \(shown(ranges.line)), "
                        + "paragraph \(shown(ranges.paragraph))")
        }
        return rows.joined(separator: "\n")
    }

    static func rect(_ r: Layoutd_V1_Rect) -> String { String(format: "(%.2f, %.2f, %.2f x %.2f)", r.x, r.y, r.width, r.height) }
}
