import LayoutEngine

/// The frame of a document reply, written straight from the document: each changed
/// paragraph's layout by `LayoutReplyFrame`'s writer, the rest (a few numbers, the caret, the
/// hits) as swift-protobuf writes it. Its bytes equal `Framing.encode` of the envelope built
/// through `Layoutd_V1_ParagraphChange(_:document:ruleNames:)` (a test holds the two together).
public enum DocumentReplyFrame {
    private enum Envelope { static let requestID = 1, documentReply = 35 }
    private enum Reply { static let document = 1, changes = 2, story = 12, views = 13 }
    private enum ViewField { static let changes = 1, lineCount = 2, width = 3, height = 4 }
    private enum Change {
        static let first = 1, removed = 2, paragraphs = 3, deltaY = 4, deltaOffset = 5, deltaLines = 6, deltaAttachments = 7, fittedLines = 8
    }

    /// One edit's change with its new paragraphs as they stood right after it: each layout in
    /// its own coordinates and where the document put it (the writer places it as it writes).
    public struct Part {
        public var change: DocumentChange
        /// The new paragraphs (a paragraph is never changed in place: an edit puts new ones in
        /// the document), held by reference: a layout's value copied here retained each of its arrays.
        public var paragraphs: [(paragraph: DocumentParagraph, placement: ParagraphPlacement)]
        /// One list per new paragraph, or none when no paragraph has a match.
        public var ruleMatches: [[Layoutd_V1_RuleMatch]]
        /// A Type Mode document's: each new paragraph's line sizes; empty for a layout's document.
        public var fittedLines: [Layoutd_V1_FittedLines]

        /// How many glyphs its new paragraphs hold.
        var glyphCount: Int { paragraphs.reduce(0) { $0 + $1.paragraph.glyphCount } }

        /// Reads the change's new paragraphs from `document`, which must be as the edit left it.
        public init(_ change: DocumentChange, document: TextDocument, ruleNames: [String]) {
            self.change = change
            let indices = change.first..<(change.first + change.inserted)
            paragraphs = indices.map { (document.paragraphs[$0], document.placement(of: $0)) }
            let matched = indices.contains { !document.paragraphs[$0].matches.isEmpty }
            ruleMatches = matched ? indices.map { document.placedRuleMatches($0, names: ruleNames) } : []
            fittedLines = !document.isTypeMode ? [] : indices.map { Layoutd_V1_FittedLines(document.paragraphs[$0].fitted) }
        }
    }

    /// One more layout of the document's text (`DocumentReply.views`): the same edits' changes
    /// in it, and its size.
    public struct View {
        public var parts: [Part]
        public var lineCount: Int
        public var width: Double
        public var height: Double

        /// `parts` are `document`'s changes; its size is read as it stands now.
        public init(of document: TextDocument, parts: [Part]) {
            self.parts = parts
            (lineCount, width, height) = (document.lineCount, document.width, document.height)
        }
    }

    /// A reply's fields besides its changes, story and views, as plain values: the generated
    /// message keeps them in storage it allocates, copies on write and reads through getters,
    /// which every keystroke paid when the server filled one and this writer read it back.
    public struct Summary: Sendable {
        public var document: UInt64 = 0
        public var textLength: UInt32 = 0
        public var paragraphCount: UInt32 = 0
        public var lineCount: UInt32 = 0
        public var width = 0.0
        public var height = 0.0
        /// The caret after the last edit: its rects and line (`DocumentReply.caret`; the
        /// server always sets its primary rect).
        public var caret: (primary: Rect?, secondary: Rect?, line: Int)?
        public var caretPosition: TextPosition?
        /// Hits and carets asked for, rare beside typing: written by swift-protobuf.
        public var hits: [Layoutd_V1_Hit] = []
        public var carets: [Layoutd_V1_Caret] = []

        public init() {}

        /// The same fields read from the generated message (its changes, story and views are not).
        public init(_ reply: Layoutd_V1_DocumentReply) {
            (document, textLength, paragraphCount, lineCount) = (reply.document, reply.textLength, reply.paragraphCount, reply.lineCount)
            (width, height, hits, carets) = (reply.width, reply.height, reply.hits, reply.carets)
            func rect(_ rect: Layoutd_V1_Rect) -> Rect {
                Rect(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
            }
            if reply.hasCaret {
                let wire = reply.caret
                caret = (wire.hasPrimary ? rect(wire.primary) : nil, wire.hasSecondary ? rect(wire.secondary) : nil, Int(wire.lineIndex))
            }
            if reply.hasCaretPosition {
                caretPosition = TextPosition(offset: Int(reply.caretPosition.offset),
                                             affinity: reply.caretPosition.affinity == .upstream ? .upstream : .downstream)
            }
        }
    }

    /// `summary` holds every field but `changes`, `story` and `views` (its own are ignored): a
    /// Type Mode document's `story` comes apart, so a keystroke's summary is not asked for it.
    public static func encode(requestID: UInt64, summary: Layoutd_V1_DocumentReply, parts: [Part], story: Layoutd_V1_DocumentStory? = nil,
                              views: [View] = []) -> [UInt8] {
        encode(requestID: requestID, summary: Summary(summary), parts: parts, story: story, views: views)
    }

    public static func encode(requestID: UInt64, summary: Summary, parts: [Part], story: Layoutd_V1_DocumentStory? = nil,
                              views: [View] = []) -> [UInt8] {
        func glyphs(_ parts: [Part]) -> Int { parts.reduce(0) { $0 + $1.glyphCount } }
        let glyphCount = glyphs(parts) + views.reduce(0) { $0 + glyphs($1.parts) }
        return ProtobufWriter.frame(capacity: 128 + glyphCount * 20) { writer in
            writer.fixed32(0)  // the frame header, filled in at the end
            writer.uint64(Envelope.requestID, requestID)
            // Hits and carets asked for (fields 10 and 11, after the summary's) are written by swift-protobuf.
            var asked: [UInt8] = []
            if !summary.hits.isEmpty || !summary.carets.isEmpty {
                var rest = Layoutd_V1_DocumentReply()
                (rest.hits, rest.carets) = (summary.hits, summary.carets)
                asked = (try? rest.serializedBytes()) ?? []
            }
            // The reply, each change and each paragraph are long: their lengths' room is kept ahead.
            writer.message(Envelope.documentReply, lengthBytes: LayoutReplyFrame.lengthBytes(glyphs: glyphCount)) { reply in
                reply.uint64(Reply.document, summary.document)
                writeChanges(parts, field: Reply.changes, to: &reply)
                // Fields 3 to 11, in number order, as swift-protobuf writes them; then the story and the views.
                writeSummary(summary, to: &reply)
                reply.fields(asked)
                if let story { reply.message(Reply.story, serialized: (try? story.serializedBytes()) ?? []) }
                for view in views {
                    reply.message(Reply.views) { message in
                        writeChanges(view.parts, field: ViewField.changes, to: &message)
                        message.uint32(ViewField.lineCount, UInt32(view.lineCount))
                        message.double(ViewField.width, view.width)
                        message.double(ViewField.height, view.height)
                    }
                }
            }
            writer.finishFrame()
        }
    }

    /// Each part as a `ParagraphChange` in `field`.
    private static func writeChanges(_ parts: [Part], field: Int, to writer: inout ProtobufWriter) {
        for part in parts {
            writer.message(field, lengthBytes: LayoutReplyFrame.lengthBytes(glyphs: part.glyphCount)) { change in
                change.uint32(Change.first, UInt32(part.change.first))
                change.uint32(Change.removed, UInt32(part.change.removed))
                for (index, paragraph) in part.paragraphs.enumerated() {
                    change.message(Change.paragraphs, lengthBytes: LayoutReplyFrame.lengthBytes(glyphs: paragraph.paragraph.glyphCount)) {
                        LayoutReplyFrame.writeReply(paragraph.paragraph.layout, placed: paragraph.placement, backgrounds: [],
                                                    ruleMatches: part.ruleMatches.isEmpty ? [] : part.ruleMatches[index], to: &$0)
                    }
                }
                change.double(Change.deltaY, part.change.deltaY)
                change.int64(Change.deltaOffset, Int64(part.change.deltaOffset))
                change.int64(Change.deltaLines, Int64(part.change.deltaLines))
                change.int64(Change.deltaAttachments, Int64(part.change.deltaAttachments))
                for fitted in part.fittedLines {
                    change.message(Change.fittedLines, serialized: (try? fitted.serializedBytes()) ?? [])
                }
            }
        }
    }

    /// Every field the summary's writer writes, by message (hits and carets, 10 and 11, and a
    /// Type Mode document's story, 12, and its fitted lines by swift-protobuf): a test holds
    /// it to the .proto, as `LayoutReplyFrame.writtenFields`.
    public static let writtenFields: [String: Set<Int>] = [
        "layoutd.v1.DocumentReply": Set(1...13), "layoutd.v1.Caret": [1, 2, 3], "layoutd.v1.TextPosition": [1, 2],
        "layoutd.v1.DocumentView": [ViewField.changes, ViewField.lineCount, ViewField.width, ViewField.height],
        "layoutd.v1.ParagraphChange": [Change.first, Change.removed, Change.paragraphs, Change.deltaY, Change.deltaOffset,
                                       Change.deltaLines, Change.deltaAttachments, Change.fittedLines],
    ]

    /// The most a reply's fields 3 to 9 take: three counts (6 bytes each), two doubles (9 each),
    /// the caret (2, its two rects 22 each and its line 6) and its position (2, 6 and 11).
    static let summaryFieldsBound = 18 + 18 + 52 + 19

    /// A reply's fields 3 to 9, as swift-protobuf writes them.
    private static func writeSummary(_ summary: Summary, to reply: inout ProtobufWriter) {
        reply.bounded(summaryFieldsBound) { fields in
            fields.uint32(Summary.Field.textLength, summary.textLength)
            fields.uint32(Summary.Field.paragraphCount, summary.paragraphCount)
            fields.uint32(Summary.Field.lineCount, summary.lineCount)
            fields.double(Summary.Field.width, summary.width)
            fields.double(Summary.Field.height, summary.height)
            if let caret = summary.caret {
                fields.message(Summary.Field.caret) { message in
                    if let primary = caret.primary { message.message(1) { LayoutReplyFrame.write(primary, to: &$0) } }
                    if let secondary = caret.secondary { message.message(2) { LayoutReplyFrame.write(secondary, to: &$0) } }
                    message.uint32(3, UInt32(caret.line))
                }
            }
            if let position = summary.caretPosition {
                fields.message(Summary.Field.caretPosition) { message in
                    message.uint32(1, UInt32(position.offset))
                    message.enumeration(2, (position.affinity == .upstream ? Layoutd_V1_Affinity.upstream : .downstream).rawValue)
                }
            }
        }
    }
}

extension DocumentReplyFrame.Summary {
    enum Field { static let textLength = 3, paragraphCount = 4, lineCount = 5, width = 6, height = 7, caret = 8, caretPosition = 9 }
}

extension TextDocument {
    /// Paragraph `index`'s rule matches in the text's offsets, for the wire.
    public func placedRuleMatches(_ index: Int, names: [String]) -> [Layoutd_V1_RuleMatch] {
        let start = start(of: index)
        return paragraphs[index].matches.map { match in
            var moved = match
            moved.range = match.range.lowerBound + start..<match.range.upperBound + start
            moved.hidden = match.hidden.map { $0.lowerBound + start..<$0.upperBound + start }
            return Layoutd_V1_RuleMatch(moved, names: names)
        }
    }
}
