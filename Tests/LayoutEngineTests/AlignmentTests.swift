import Testing
@testable import LayoutEngine

@Suite struct AlignmentTests {
    let text = "Alignment puts each line somewhere in the width of its container box"

    @Test(arguments: [TextAlignment.left, .right, .center, .natural])
    func linesSitWhereTheirAlignmentSays(_ alignment: TextAlignment) throws {
        let layout = try Fixtures.layout(text, width: 250) { $0.alignment = alignment }
        for line in layout.lines {
            let expected: Double
            switch alignment {
            case .right: expected = 250 - line.width
            case .center: expected = (250 - line.width) / 2
            default: expected = 0
            }
            #expect(abs(line.usedRect.x - expected) < 1e-6)
            #expect(line.baselineOrigin.x == line.usedRect.x)
        }
    }

    @Test func justifiedLinesFillTheWidthButTheLastDoesNot() throws {
        let layout = try Fixtures.layout(text, width: 250) { $0.alignment = .justified }
        #expect(layout.lines.count >= 3)
        for (index, line) in layout.lines.enumerated() {
            let run = layout.runs.filter { $0.lineIndex == index }
            let contentEnd = line.range.upperBound - (text.utf16.count == line.range.upperBound ? 0 : 1)
            let right = run.flatMap { zip($0.positions, zip($0.advances, $0.clusters)) }
                .filter { $0.1.1 < contentEnd }.map { $0.0.x + $0.1.0 }.max()!
            if index < layout.lines.count - 1 {
                #expect(abs(right - 250) < 1e-6, "line \(index) ends at \(right)")
            } else {
                #expect(right < 249)
            }
        }
    }

    @Test func justifyWithoutSpacesStretchesBetweenCharacters() throws {
        let layout = try Fixtures.layout("天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏", width: 200) { $0.alignment = .justified }
        #expect(layout.lines.count >= 2)
        #expect(abs(layout.lines[0].width - 200) < 1e-6)
    }

    @Test func lineHeightMultipleAndFixedHeight() throws {
        let single = try Fixtures.layout("a\nb", width: 100)
        let double = try Fixtures.layout("a\nb", width: 100) { $0.lineHeightMultiple = 2 }
        let fixed = try Fixtures.layout("a\nb", width: 100) { $0.lineHeight = 50 }
        #expect(abs(double.size.height - 2 * single.size.height) < 1e-6)
        #expect(abs(fixed.size.height - 100) < 1e-6)
        #expect(abs(fixed.lines[1].usedRect.y - 50) < 1e-6)
    }

    @Test func letterSpacingWidensByOneSpacingPerGrapheme() throws {
        let plain = try Fixtures.layout("office", width: 1000)
        let spaced = try Fixtures.layout("office", width: 1000) {
            $0.text = AttributedText("office", style: TextStyle(family: "Noto Sans", size: 24, letterSpacing: 2))
        }
        // "ffi" may be a ligature; spacing still counts six graphemes.
        #expect(abs(spaced.lines[0].width - plain.lines[0].width - 12) < 0.5)
    }
}
