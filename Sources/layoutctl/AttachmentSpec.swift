import ArgumentParser
import Foundation
import LayoutProtocol

/// `--attachment SIZE[:ALIGNMENT[:FONT]]`, the Nth for the Nth U+FFFC of the text.
///
/// SIZE is `WxH` (points) or `Wx[ascent]+[descent]`, with `em` at the end for sizes in ems of
/// the style at the attachment (`1x1em`). ALIGNMENT is one of YYText's `top`, `center`,
/// `bottom` (against FONT, or the style), SkParagraph's `baseline@OFFSET`, `above`, `below`,
/// `line-top`, `line-bottom`, `line-middle`, or `baseline` (the default). FONT is `Family`,
/// `Family@size` or `@size`.
enum AttachmentSpec {
    static let help = ArgumentHelp("An attachment for the next U+FFFC: SIZE[:ALIGNMENT[:FONT]], e.g. 40x40:center, "
                                   + "24x18+6, 1x1em:bottom:\"Noto Serif\"@30.",
                                   valueName: "spec")

    static func parse(_ spec: String) throws -> Layoutd_V1_Attachment {
        var parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        var attachment = Layoutd_V1_Attachment()
        var size = parts.removeFirst()
        if size.hasSuffix("em") {
            attachment.sizeInEms = true
            size.removeLast(2)
        }
        let sides = size.split(separator: "x", maxSplits: 1).map(String.init)
        guard sides.count == 2, let width = Float(sides[0]) else { throw invalid(spec, "SIZE must be WxH or Wx[ascent]+[descent]") }
        attachment.width = width
        let vertical = sides[1].split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if vertical.count == 2 {
            guard let ascent = Float(vertical[0]), let descent = Float(vertical[1]) else {
                throw invalid(spec, "Wx[ascent]+[descent] needs two numbers")
            }
            attachment.metrics = Layoutd_V1_BaselineMetrics.with { $0.ascent = ascent; $0.descent = descent }
        } else {
            guard let height = Float(vertical[0]) else { throw invalid(spec, "the height is not a number") }
            attachment.height = height
        }
        if let alignment = parts.first, !alignment.isEmpty {
            try apply(alignment, to: &attachment, spec: spec)
        }
        if parts.count > 1 {
            var font = parts[1]
            if let at = font.lastIndex(of: "@") {
                guard let points = Float(font[font.index(after: at)...]) else { throw invalid(spec, "FONT's size is not a number") }
                attachment.referenceFont.size = points
                font = String(font[..<at])
            }
            font = font.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if !font.isEmpty { attachment.referenceFont.family = font }
        }
        return attachment
    }

    private static func apply(_ alignment: String, to attachment: inout Layoutd_V1_Attachment, spec: String) throws {
        if alignment.hasPrefix("baseline@") {
            guard let offset = Float(alignment.dropFirst("baseline@".count)) else { throw invalid(spec, "baseline@OFFSET needs a number") }
            attachment.alignment = .placeholderBaseline
            attachment.baselineOffset = offset
            return
        }
        let names: [String: Layoutd_V1_AttachmentAlignment] = [
            "baseline": .baseline, "top": .fontTop, "center": .fontCenter, "bottom": .fontBottom,
            "above": .aboveBaseline, "below": .belowBaseline,
            "line-top": .lineTop, "line-bottom": .lineBottom, "line-middle": .lineMiddle,
        ]
        guard let value = names[alignment] else {
            throw invalid(spec, "ALIGNMENT must be one of \(names.keys.sorted().joined(separator: ", ")) or baseline@OFFSET")
        }
        attachment.alignment = value
    }

    private static func invalid(_ spec: String, _ reason: String) -> ValidationError {
        ValidationError("--attachment \(spec): \(reason)")
    }
}

/// One row per attachment: index, line, UTF-16 range, rect, ascent and descent.
enum AttachmentTable {
    static func render(_ boxes: [Layoutd_V1_AttachmentBox]) -> String? {
        guard !boxes.isEmpty else { return nil }
        var rows = ["attachment  line  range        x        y    width   height  ascent  descent"]
        for box in boxes {
            rows.append(String(format: "%10d  %4d  ", box.index, box.lineIndex)
                        + "[\(box.range.start),\(box.range.start + box.range.length))".padded(11)
                        + String(format: "  %7.2f  %7.2f  %7.2f  %7.2f  %6.2f  %7.2f", box.rect.x, box.rect.y, box.rect.width,
                                 box.rect.height, box.ascent, box.descent))
        }
        return rows.joined(separator: "\n")
    }
}
