/// Punctuation set outside the box (CSS `hanging-punctuation: first allow-end last`, InDesign's
/// optical margin for punctuation): an opening bracket or quote that starts a paragraph hangs
/// before its start edge; a stop, a comma or a closing bracket or quote that ends a line hangs
/// past its end edge, taking no room from the line, so the text's edge lines up with the box.
enum HangingPunctuation {
    /// Starts a paragraph and may hang before it: general categories Ps, Pi and Pf, and the
    /// ASCII quotes.
    static func hangsAtStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .openPunctuation, .initialPunctuation, .finalPunctuation: return true
        default: return scalar == "\"" || scalar == "'"
        }
    }

    /// Ends a line and may hang past it: stops and commas (CSS's list), closing brackets and quotes.
    static func hangsAtEnd(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2C, 0x2E, 0x060C, 0x06D4, 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFE50, 0xFE51, 0xFE52, 0xFF61, 0xFF64, 0x22, 0x27:
            return true
        default:
            switch scalar.properties.generalCategory {
            case .closePunctuation, .finalPunctuation, .initialPunctuation: return true
            default: return false
            }
        }
    }

    /// For each unit of `units`, whether it may hang at a line's end (BMP punctuation only: every
    /// character above hangs nowhere).
    static func endHangers(_ units: ContiguousArray<UInt16>) -> [Bool] {
        units.map { unit in !UTF16.isLeadSurrogate(unit) && !UTF16.isTrailSurrogate(unit) && hangsAtEnd(Unicode.Scalar(unit)!) }
    }
}
