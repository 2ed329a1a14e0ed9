import Testing
import TestSupport
@testable import LayoutEngine

/// A path of boxes is answered rect by rect (`RectUnion`), beside the general scan of its
/// flattened outline: the two give the same intervals for every band.
@Suite struct RectUnionTests {
    /// A box as a path: clockwise on the page (y down) unless `reversed`, and sometimes with a
    /// fourth line back to its start, as clients write them.
    static func box(_ r: Rect, reversed: Bool = false, closingLine: Bool = false) -> [PathCommand] {
        var corners = [Point(x: r.x, y: r.y), Point(x: r.maxX, y: r.y), Point(x: r.maxX, y: r.maxY), Point(x: r.x, y: r.maxY)]
        if reversed { corners.reverse() }
        var commands: [PathCommand] = [.move(corners[0])] + corners.dropFirst().map { .line($0) }
        if closingLine { commands.append(.line(corners[0])) }
        return commands + [.close]
    }

    /// Boxes on a coarse grid, so that many share sides, touch at corners, stack or overlap.
    static func randomBoxes(_ random: inout SeededGenerator) -> [Rect] {
        (0..<Int.random(in: 1...40, using: &random)).map { _ in
            let x = Double(Int.random(in: 0...20, using: &random)) * 5, y = Double(Int.random(in: 0...30, using: &random)) * 4
            let w = Double(Int.random(in: 1...8, using: &random)) * 5, h = Double(Int.random(in: 1...10, using: &random)) * 4
            return Rect(x: x, y: y, width: w, height: h)
        }
    }

    @Test func aPathOfBoxesIsAnsweredAsTheScannerAnswersIt() throws {
        var random = SeededGenerator(seed: 34)
        var bands = 0
        for _ in 0..<300 {
            let reversed = Bool.random(using: &random)
            let commands = Self.randomBoxes(&random).flatMap {
                Self.box($0, reversed: reversed, closingLine: Bool.random(using: &random))
            }
            let shape = FlowShape(.path(Path(commands)))
            let outline = ShapeOutline(shape)
            guard case .rects = outline else {
                Issue.record("a path of boxes wound one way was scanned")
                return
            }
            let scanner = ShapeScanner(shape)
            #expect(outline.minY == scanner.minY && outline.maxY == scanner.maxY)
            for _ in 0..<40 {
                // Band edges on the grid (meeting the boxes' sides exactly) and off it.
                let onGrid = Bool.random(using: &random)
                let top = onGrid ? Double(Int.random(in: -2...42, using: &random)) * 4 : Double.random(in: -10...170, using: &random)
                let height = onGrid ? Double(Int.random(in: 0...6, using: &random)) * 4 : Double.random(in: 0...30, using: &random)
                #expect(outline.covered(top: top, bottom: top + height) == scanner.covered(top: top, bottom: top + height),
                        "covered \(top)…\(top + height) of \(commands)")
                #expect(outline.inside(top: top, bottom: top + height) == scanner.inside(top: top, bottom: top + height),
                        "inside \(top)…\(top + height) of \(commands)")
                bands += 1
            }
        }
        #expect(bands == 12_000)
    }

    /// Only a union of boxes takes the shortcut: boxes wound both ways (under nonzero the
    /// overlap of two opposite boxes is a hole), the even-odd rule, a slanted side, a curve, a
    /// box left open.
    @Test func otherPathsAreScanned() {
        let a = Rect(x: 0, y: 0, width: 20, height: 20), b = Rect(x: 10, y: 10, width: 20, height: 20)
        func isScanned(_ shape: FlowShape) -> Bool {
            if case .scanned = ShapeOutline(shape) { return true }
            return false
        }
        #expect(!isScanned(FlowShape(.path(Path(Self.box(a) + Self.box(b))))))
        #expect(isScanned(FlowShape(.path(Path(Self.box(a) + Self.box(b, reversed: true))))))
        #expect(isScanned(FlowShape(.path(Path(Self.box(a) + Self.box(b))), fillRule: .evenOdd)))
        #expect(isScanned(FlowShape(.path(Path([.move(Point(x: 0, y: 0)), .line(Point(x: 10, y: 0)), .line(Point(x: 12, y: 10)),
                                                .line(Point(x: 0, y: 10)), .close])))))
        #expect(isScanned(FlowShape(.path(Path([.move(Point(x: 0, y: 0)), .quad(Point(x: 5, y: 5), Point(x: 10, y: 0)),
                                                .line(Point(x: 10, y: 10)), .line(Point(x: 0, y: 10)), .close])))))
        #expect(isScanned(FlowShape(.path(Path(Array(Self.box(a).dropLast()))))))
    }

    /// An image's silhouette is such a union.
    @Test func aSilhouetteIsAnsweredRectByRect() throws {
        var alpha = [UInt8](repeating: 0, count: 16 * 16)
        for row in 0..<16 { for column in 0..<16 where (column - 8) * (column - 8) + (row - 8) * (row - 8) < 40 { alpha[row * 16 + column] = 255 } }
        let shape = try #require(ImageSilhouette(width: 16, height: 16, alpha: alpha).shape(in: Rect(x: 0, y: 0, width: 64, height: 64),
                                                                                           threshold: 0))
        guard case .rects = ShapeOutline(shape) else {
            Issue.record("the silhouette was scanned")
            return
        }
    }
}
