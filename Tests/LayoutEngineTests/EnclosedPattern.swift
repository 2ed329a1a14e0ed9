@testable import LayoutEngine

/// A rule pattern without a regular-expression engine, so the engine's own tests run rules
/// without PCRE2 (which sits in LayoutRules): text enclosed by a marker on one line, as
/// `\*([^*\n\r\x{2029}]+)\*` matches it, the enclosed text as group 1.
final class EnclosedPattern: RulePattern, RuleMatcher {
    let marker: UInt16

    init(marker: Character = "*") { self.marker = marker.utf16.first! }

    func matcher(units: Int) -> any RuleMatcher { self }

    func match(in subject: ContiguousArray<UInt16>, from start: Int, group: Int, checked: Bool)
        throws(RuleMatchFailure) -> (whole: Range<Int>, group: Range<Int>?)? {
        var open = start
        while open < subject.count {
            defer { open += 1 }
            guard subject[open] == marker else { continue }
            // The enclosed text ends at the next marker; a line's end or an empty text is no match here.
            var close = open + 1
            while close < subject.count, subject[close] != marker, ![0x0A, 0x0D, 0x2029].contains(subject[close]) { close += 1 }
            guard close < subject.count, subject[close] == marker, close > open + 1 else { continue }
            return (open..<close + 1, group == 0 ? open..<close + 1 : open + 1..<close)
        }
        return nil
    }
}
