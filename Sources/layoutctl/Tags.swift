import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol
import SwiftProtobuf

extension LayoutCtl {
    struct Tags: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Image tags: a dot on a photo with 1-3 labels; geometry, pictures, hit-testing, styles.",
            subcommands: [Place.self, Hit.self, Toggle.self, Reset.self], defaultSubcommand: Place.self)
    }
}

/// The tags of a photo, as options: one tag from --at/--label/--style, more from --tag.
struct TagOptions: ParsableArguments {
    @Option(help: "The photo's size in points, WIDTHxHEIGHT.") var photo: String = "1080x1350"
    @Option(parsing: .unconditional, help: "The tag's point, X,Y in 0-1 of the photo.") var at: String?
    @Option(help: "A label of the tag at --at: NAME or NAME|VALUE; 1-3 of them.") var label: [String] = []
    @Option(parsing: .unconditional, help: "The style index of the tag at --at.") var style: UInt32 = 0
    @Option(parsing: .unconditional, help: "The style the tag at --at switches to (placed beside its own; --animate switch).") var switchTo: UInt32?
    @Option(help: "Another tag: X,Y[@STYLE[>NEXT]]:LABEL[;LABEL...] with each LABEL NAME or NAME|VALUE; NEXT is the style it switches to.") var tag: [String] = []
    @Option(help: "Font family of the labels.") var font: String = ""
    @Option(parsing: .unconditional, help: "Text size of the labels in points (default 13).") var size: Float?
    @Option(help: "A style table file (JSON, as data/tag-styles.json); default: the daemon's.") var styleTable: String?
    @Flag(help: "Draw a tag whose labels would leave the photo in the nearest style that keeps them on.") var keepInside = false
    @Flag(help: "Draw a tag whose point lies off the photo (a drag past its edge) at the nearest point on it.") var clamp = false
    @Option(help: "Show/hide events played before --time, KIND@SECONDS (hide@0, show@1.5); in time order.") var event: [String] = []
    @Flag(help: "The tags start hidden (before the events).") var initiallyHidden = false
    @Option(parsing: .unconditional, help: "The moment, in seconds, whose state is reported and drawn.") var time: Double = 0
    @Option(parsing: .unconditional, help: "One phase of the animation, seconds (default 1, as the article; the whole is three).") var phase: Float = 0

    static func point(_ text: String, option: String) throws -> Layoutd_V1_Point {
        let parts = text.split(separator: ",").map { Float($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1] else { throw ValidationError("\(option) takes X,Y, got \"\(text)\"") }
        var point = Layoutd_V1_Point()
        point.x = x
        point.y = y
        return point
    }

    static func label(_ text: String) -> Layoutd_V1_TagLabel {
        var label = Layoutd_V1_TagLabel()
        let parts = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        label.name = String(parts[0])
        if parts.count > 1 { label.value = String(parts[1]) }
        return label
    }

    /// `X,Y[@STYLE[>NEXT]]:LABEL[;LABEL...]`.
    static func tag(_ text: String) throws -> Layoutd_V1_ImageTag {
        guard let colon = text.firstIndex(of: ":") else { throw ValidationError("--tag takes X,Y[@STYLE[>NEXT]]:LABEL[;LABEL...], got \"\(text)\"") }
        let head = text[..<colon].split(separator: "@", maxSplits: 1)
        var tag = Layoutd_V1_ImageTag()
        tag.at = try point(String(head.first ?? ""), option: "--tag")
        if head.count > 1 {
            let styles = head[1].split(separator: ">", maxSplits: 1, omittingEmptySubsequences: false)
            guard let style = UInt32(styles[0]) else { throw ValidationError("--tag: the style after @ is a number, got \"\(styles[0])\"") }
            tag.style = style
            if styles.count > 1 {
                guard let next = UInt32(styles[1]) else { throw ValidationError("--tag: the style after > is a number, got \"\(styles[1])\"") }
                tag.switchTo.style = next
            }
        }
        tag.labels = text[text.index(after: colon)...].split(separator: ";", omittingEmptySubsequences: false).map { label(String($0)) }
        return tag
    }

    func request() throws -> Layoutd_V1_TagsRequest {
        var request = Layoutd_V1_TagsRequest()
        let sides = photo.lowercased().split(separator: "x").map { Float($0) }
        guard sides.count == 2, let width = sides[0], let height = sides[1] else {
            throw ValidationError("--photo takes WIDTHxHEIGHT in points, got \"\(photo)\"")
        }
        request.photoWidth = width
        request.photoHeight = height
        if let at {
            var tag = Layoutd_V1_ImageTag()
            tag.at = try Self.point(at, option: "--at")
            tag.labels = label.map(Self.label)
            tag.style = style
            if let switchTo { tag.switchTo.style = switchTo }
            request.tags.append(tag)
        } else if !label.isEmpty {
            throw ValidationError("--label belongs to the tag at --at: give --at X,Y")
        } else if switchTo != nil {
            throw ValidationError("--switch-to belongs to the tag at --at: give --at X,Y")
        }
        request.tags += try tag.map(Self.tag)
        if !font.isEmpty { request.textStyle.family = font }
        if let size {
            request.textStyle.size = try StyleValues.size(size, option: "--size")
            request.valueStyle.size = request.textStyle.size
        }
        if let styleTable { request.styleTableJson = try Self.read(styleTable) }
        request.keepInside = keepInside
        request.clampToPhoto = clamp
        if !event.isEmpty || initiallyHidden || time != 0 || phase != 0 {
            request.moment.initiallyHidden = initiallyHidden
            request.moment.atSeconds = time
            request.moment.phaseSeconds = phase
            request.moment.events = try event.map { text in
                let parts = text.split(separator: "@", maxSplits: 1)
                guard parts.count == 2, let seconds = Double(parts[1]), let kind = ["hide": Layoutd_V1_TagAnimation.hide, "show": .show][String(parts[0])] else {
                    throw ValidationError("--event takes hide@SECONDS or show@SECONDS, got \"\(text)\"")
                }
                var event = Layoutd_V1_TagEvent()
                event.kind = kind
                event.atSeconds = seconds
                return event
            }
        }
        return request
    }

    static func read(_ path: String) throws -> String {
        do { return try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8) } catch {
            throw ValidationError("cannot read \(path): \(error.localizedDescription)")
        }
    }
}

extension LayoutCtl.Tags {
    struct Place: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "place", abstract: "Place the tags and print their parts, one row each (the default).")

        @OptionGroup var connection: Connection
        @OptionGroup var tags: TagOptions
        @Option(name: .shortAndLong, parsing: .unconditional, help: "Write a picture instead: FILE.png, .svg or .pdf, or - for standard output (with --format).") var output: String?
        @Option(help: "The picture's format: png, svg or pdf (default: from -o's extension).") var format: String?
        @Option(parsing: .unconditional, help: "Picture scale, pixels per point.") var scale: Float = 2
        @Option(help: "The photo under the tags with -o: a PNG scaled to --photo.") var image: String?
        @Option(help: "With -o x.svg: hide, show or switch (to each tag's switch-to style), the animation as CSS keyframes.") var animate: String?

        func run() throws {
            let request = try tags.request()
            try connection.reportingFailures {
                if let output {
                    var render = Layoutd_V1_RenderRequest()
                    render.tags = request
                    if let image { render.photo = try Picture.images([image])[0] }
                    if let animate {
                        guard let kind = ["hide": Layoutd_V1_TagAnimation.hide, "show": .show, "switch": .switch][animate] else {
                            throw ValidationError("--animate must be hide, show or switch")
                        }
                        render.animate = kind
                    }
                    try Picture.write(render, to: output, format: format, scale: scale, connection: connection)
                    return
                }
                guard case .tagsReply(let reply) = try connection.client().request(.tags(request)) else {
                    throw ClientError.protocolViolation("expected a tags reply")
                }
                print(connection.json ? try StableJSON.encode(reply) : TagTable.render(reply))
            }
        }
    }

    struct Hit: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the part of a tag under a point: dot, label or none.")

        @OptionGroup var connection: Connection
        @OptionGroup var tags: TagOptions
        @Option(parsing: .unconditional, help: "The point, X,Y in photo points.") var atPoint: String

        func run() throws {
            var request = Layoutd_V1_TagHitRequest()
            request.tags = try tags.request()
            request.point = try TagOptions.point(atPoint, option: "--at-point")
            try connection.reportingFailures {
                guard case .tagHitReply(let reply) = try connection.client().request(.tagHit(request)) else {
                    throw ClientError.protocolViolation("expected a tag hit reply")
                }
                if connection.json { print(try StableJSON.encode(reply)); return }
                switch reply.part {
                case .dot: print("tag \(reply.tag) dot")
                case .label: print("tag \(reply.tag) label \(reply.label)")
                default: print("none")
                }
            }
        }
    }

    struct Toggle: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the style after --style, as a tap on the dot cycles: (style + 1) % count.")

        @OptionGroup var connection: Connection
        @Option(help: "The tag's labels (their count picks the styles).") var label: [String] = []
        @Option(parsing: .unconditional, help: "The number of labels, when no --label is given.") var labelCount: UInt32 = 0
        @Option(parsing: .unconditional, help: "The current style.") var style: UInt32 = 0
        @Option(help: "A style table file (JSON); default: the daemon's.") var styleTable: String?

        func run() throws {
            var request = Layoutd_V1_TagStyleRequest()
            request.labelCount = labelCount != 0 ? labelCount : UInt32(label.count)
            request.toggleFrom = style
            if let styleTable { request.styleTableJson = try TagOptions.read(styleTable) }
            try TagStyleOutput.send(request, connection: connection)
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Recognise the style from every label's angle (degrees), within a tolerance.")

        @OptionGroup var connection: Connection
        @Option(parsing: .unconditional, help: "The labels' angles in degrees, comma-separated, in label order.") var angles: String
        @Option(parsing: .unconditional, help: "Degrees an angle may differ (default 0.5).") var tolerance: Float = 0
        @Option(help: "A style table file (JSON); default: the daemon's.") var styleTable: String?

        func run() throws {
            var request = Layoutd_V1_TagStyleRequest()
            let degrees = angles.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !degrees.isEmpty, degrees.allSatisfy({ $0 != nil }) else { throw ValidationError("--angles takes numbers, e.g. 45,315") }
            request.labelCount = UInt32(degrees.count)
            request.reset.degrees = degrees.map { $0! }
            request.toleranceDegrees = tolerance
            if let styleTable { request.styleTableJson = try TagOptions.read(styleTable) }
            try TagStyleOutput.send(request, connection: connection)
        }
    }
}

enum TagStyleOutput {
    static func send(_ request: Layoutd_V1_TagStyleRequest, connection: Connection) throws {
        try connection.reportingFailures {
            guard case .tagStyleReply(let reply) = try connection.client().request(.tagStyle(request)) else {
                throw ClientError.protocolViolation("expected a tag style reply")
            }
            if connection.json { print(try StableJSON.encode(reply)); return }
            guard reply.matched else {
                print("no style matches (the table has \(reply.styleCount) for \(request.labelCount) labels)")
                throw ExitCode(1)
            }
            let angles = reply.labels.map { String(format: "%g %@ %@", $0.angle, $0.line, $0.side) }.joined(separator: ", ")
            print("style \(reply.style) of \(reply.styleCount)" + (reply.name.isEmpty ? "" : " (\(reply.name))") + ": \(angles)")
        }
    }
}

/// One readable row per part of every tag: the dot, each label's leader, underline and text, the bounds.
enum TagTable {
    static func render(_ reply: Layoutd_V1_TagsReply) -> String {
        func point(_ p: Layoutd_V1_Point) -> String { String(format: "%.2f,%.2f", p.x, p.y) }
        func rect(_ r: Layoutd_V1_Rect) -> String { String(format: "%.2f,%.2f %.2fx%.2f", r.x, r.y, r.width, r.height) }
        var rows = ["tag  part         geometry                              detail"]
        for tag in reply.tags {
            let moved = tag.style != tag.requestedStyle ? " (asked \(tag.requestedStyle))" : ""
            let inside = tag.inside ? "inside" : (tag.insideStyle >= 0 ? "leaves the photo; style \(tag.insideStyle) keeps it on" : "leaves the photo; no style keeps it on")
            let prefix = String(format: "%3d  ", tag.index)
            rows.append(prefix + "dot".padded(13) + "\(point(tag.dot)) r \(tag.dotRadius)".padded(38)
                        + "style \(tag.style)\(moved), \(inside); ring r \(tag.shadowRadius) at \(tag.shadowOpacity)")
            for (index, label) in tag.labels.enumerated() {
                rows.append(prefix + "leader \(index)".padded(13) + "\(point(label.leaderFrom)) -> \(point(label.leaderTo))".padded(38)
                            + String(format: "%g°", label.angle))
                rows.append(prefix + "underline \(index)".padded(13) + "\(point(label.leaderTo)) -> \(point(label.underlineTo))".padded(38)
                            + "text to the \(label.side)")
                rows.append(prefix + "label \(index)".padded(13) + rect(label.textRect).padded(38)
                            + "\"\(label.text)\"" + (label.truncated ? " (cut)" : ""))
            }
            rows.append(prefix + "bounds".padded(13) + rect(tag.bounds))
            if tag.hasSwitched {
                let switched = tag.switched
                for (index, label) in switched.labels.enumerated() {
                    rows.append(prefix + "switch \(index)".padded(13) + rect(label.textRect).padded(38)
                                + "style \(switched.style): " + String(format: "%g° ", label.angle) + "\"\(label.text)\" to the \(label.side)")
                }
            }
        }
        if !reply.overlaps.isEmpty {
            rows.append("overlapping: " + reply.overlaps.map { "\($0.first) and \($0.second)" }.joined(separator: ", "))
        }
        let s = reply.state
        let phase = ["shown", "hidden", "hiding", "showing"][min(reply.phase.rawValue, 3)]
        rows.append(String(format: "state: %@; text %.2f, stroke end %.2f, dot %.2f, ring %.2f", phase as NSString,
                           s.textOpacity, s.strokeEnd, s.dotOpacity, s.shadowOpacity)
                    + (reply.ignoredEvents.isEmpty ? "" : "; ignored events \(reply.ignoredEvents.map(String.init).joined(separator: ", "))"))
        return rows.joined(separator: "\n")
    }
}
