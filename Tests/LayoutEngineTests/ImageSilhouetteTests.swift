import Testing
@testable import LayoutEngine

/// An image's alpha as a shape (CSS `shape-outside: url()`, `shape-image-threshold`): every
/// band's rectangles cover exactly its pixels above the threshold, and text flows around them.
struct ImageSilhouetteTests {
    /// A disc of opaque pixels with a half-transparent ring around it, `size` pixels square.
    static func disc(_ size: Int) -> ImageSilhouette {
        var alpha = [UInt8](repeating: 0, count: size * size)
        let centre = Double(size) / 2
        for row in 0..<size {
            for column in 0..<size {
                let distance = ((Double(column) + 0.5 - centre) * (Double(column) + 0.5 - centre)
                    + (Double(row) + 0.5 - centre) * (Double(row) + 0.5 - centre)).squareRoot()
                alpha[row * size + column] = distance < centre * 0.7 ? 255 : distance < centre * 0.9 ? 128 : 0
            }
        }
        return ImageSilhouette(width: size, height: size, alpha: alpha)
    }

    /// The horizontal extent of the shape's rectangles that cover height `y`.
    static func extent(_ shape: FlowShape, at y: Double) -> ClosedRange<Double>? {
        let xs = shape.polygons().filter { polygon in polygon.map(\.y).min()! <= y && y < polygon.map(\.y).max()! }.flatMap { $0.map(\.x) }
        guard let low = xs.min(), let high = xs.max() else { return nil }
        return low...high
    }

    @Test func eachBandCoversItsPixelsAboveTheThreshold() throws {
        let image = Self.disc(100)
        for (threshold, radius) in [(0.0, 45.0), (0.6, 35.0)] {
            // 100 pixels over 200 points: 2 points a pixel.
            let shape = try #require(image.shape(in: Rect(x: 10, y: 20, width: 200, height: 200), threshold: threshold))
            for row in stride(from: 0, to: 100, by: 7) {
                let columns = (0..<100).filter { image.alpha[row * 100 + $0] > UInt8(saturating: (threshold * 255).rounded(.down)) }
                let extent = Self.extent(shape, at: 20 + Double(row) * 2 + 1)
                if let first = columns.first, let last = columns.last {
                    #expect(extent == (10 + Double(first) * 2)...(10 + Double(last + 1) * 2), "row \(row)")
                } else {
                    #expect(extent == nil, "row \(row)")
                }
            }
            // The middle row is as wide as the disc at that threshold.
            let middle = try #require(Self.extent(shape, at: 120))
            #expect(abs((middle.upperBound - middle.lowerBound) / 2 - 2 * radius) <= 2 * 1.5, "threshold \(threshold): \(middle)")
        }
        // Nothing above the threshold: no shape.
        #expect(ImageSilhouette(width: 4, height: 4, alpha: [UInt8](repeating: 10, count: 16)).shape(in: Rect(x: 0, y: 0, width: 4, height: 4), threshold: 0.5) == nil)
    }

    @Test func aNoisyImageIsCoarsenedToTheRectLimit() throws {
        // A checkerboard of single pixels: 512 bands of 256 runs before coarsening.
        var alpha = [UInt8](repeating: 0, count: 512 * 512)
        for row in 0..<512 { for column in 0..<512 where (row + column) % 2 == 0 { alpha[row * 512 + column] = 255 } }
        let shape = try #require(ImageSilhouette(width: 512, height: 512, alpha: alpha).shape(in: Rect(x: 0, y: 0, width: 512, height: 512), threshold: 0))
        let rects = shape.polygons().count
        #expect(rects > 0 && rects <= ImageSilhouette.maxRects, "\(rects)")
        // Within the flow's limits.
        #expect(throws: Never.self) { _ = try TextFlow.check(shape, field: "shape") }
    }

    @Test func textFlowsAroundTheSilhouetteNotItsBox() throws {
        let words = String(repeating: "Text runs beside the round picture and hugs its edge ", count: 6)
        func lines(_ shape: FlowShape) throws -> [LineLayout] {
            try Fixtures.layout(words, width: 300, size: 12) { request in
                request.flow = TextFlow(containers: [TextContainer(width: 300, exclusions: [Exclusion(shape)])])
            }.lines
        }
        let picture = Rect(x: 0, y: 0, width: 150, height: 150)
        let round = try lines(try #require(Self.disc(100).shape(in: picture, threshold: 0.6)))
        let box = try lines(FlowShape(.rect(picture)))
        // Beside the box every line starts past 150; beside the disc (22.5 to 127.5 points
        // across at its widest) no line starts past its widest edge, and some start left of
        // it, in the room the round edge leaves.
        let besideBox = box.filter { $0.baselineOrigin.y < 150 }
        let besideDisc = round.filter { $0.baselineOrigin.y < 150 }
        #expect(!besideBox.isEmpty && besideBox.allSatisfy { $0.baselineOrigin.x >= 150 })
        #expect(!besideDisc.isEmpty && besideDisc.allSatisfy { $0.baselineOrigin.x <= 128 })
        #expect(besideDisc.contains { $0.baselineOrigin.x < 120 })
    }
}
