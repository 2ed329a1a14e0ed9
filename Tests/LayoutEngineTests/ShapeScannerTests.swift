import Foundation
import Testing
@testable import LayoutEngine

/// What a band of lines meets of a shape: covered anywhere in the band (text flows around),
/// or inside all the way down (text flows within), against the geometry worked by hand.
@Suite struct ShapeScannerTests {
    static func near(_ a: [Interval], _ b: [(Double, Double)], within tolerance: Double = 1e-6) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0.lower - $1.0) <= tolerance && abs($0.upper - $1.1) <= tolerance }
    }

    @Test func aRectCoversItsWidthInBandsThatCrossItAndNothingInBandsThatTouchIt() {
        let rect = ShapeScanner(FlowShape(.rect(Rect(x: 100, y: 50, width: 100, height: 100))))
        #expect(rect.covered(top: 0, bottom: 40).isEmpty)
        #expect(Self.near(rect.covered(top: 40, bottom: 60), [(100, 200)]))
        #expect(Self.near(rect.covered(top: 60, bottom: 80), [(100, 200)]))
        // A line whose bottom is the rect's top, or whose top is its bottom, does not meet it.
        #expect(rect.covered(top: 20, bottom: 50).isEmpty)
        #expect(rect.covered(top: 150, bottom: 170).isEmpty)
    }

    @Test func aSlantedEdgeCoversAsFarAsItReachesInTheBandAndLeavesInsideOnlyWhatStaysInside() {
        // Right triangle (0,0), (100,100), (0,100): at height y it spans 0...y.
        let triangle = ShapeScanner(FlowShape(.polygon([Point(x: 0, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)])))
        #expect(Self.near(triangle.covered(top: 40, bottom: 60), [(0, 60)], within: 1e-5))
        #expect(Self.near(triangle.inside(top: 40, bottom: 60), [(0, 40)], within: 1e-5))
        // Past the shape's top or bottom nothing is inside all the way down.
        #expect(triangle.inside(top: 90, bottom: 110).isEmpty)
    }

    @Test func anEllipseIsFlattenedWithinTheFlatness() {
        let circle = ShapeScanner(FlowShape(.ellipse(Rect(x: 0, y: 0, width: 200, height: 200))))
        // Inside from 95 to 105 the narrowest chord is at 95 (or 105): half-width sqrt(100² − 5²).
        let half = (100.0 * 100 - 5 * 5).squareRoot()
        let inside = circle.inside(top: 95, bottom: 105)
        #expect(Self.near(inside, [(100 - half, 100 + half)], within: FlowShape.flatness + 1e-3))
        // Covered from 0 to 10: the widest chord is at 10, half-width sqrt(100² − 90²). The
        // flatness bounds the error across the outline; along x it grows by the outline's slope
        // there, dx/dy = 90 / 43.6.
        let wide = (100.0 * 100 - 90 * 90).squareRoot()
        #expect(Self.near(circle.covered(top: 0, bottom: 10), [(100 - wide, 100 + wide)], within: FlowShape.flatness * 90 / wide + 1e-3))
    }

    @Test func theFillRuleDecidesWhetherANestedSquareIsAHole() {
        let outer = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)]
        let inner = [Point(x: 25, y: 25), Point(x: 75, y: 25), Point(x: 75, y: 75), Point(x: 25, y: 75)]
        let evenOdd = ShapeScanner(polygons: [outer, inner], fillRule: .evenOdd)
        #expect(Self.near(evenOdd.interior(at: 50), [(0, 25), (75, 100)]))
        // Wound the same way, non-zero fills the hole; wound the other way it is a hole again.
        #expect(Self.near(ShapeScanner(polygons: [outer, inner], fillRule: .nonZero).interior(at: 50), [(0, 100)]))
        #expect(Self.near(ShapeScanner(polygons: [outer, inner.reversed()], fillRule: .nonZero).interior(at: 50),
                          [(0, 25), (75, 100)]))
        // A band within the hole's height leaves the hole free; one across the hole's top edge
        // meets the whole width (the edge reaches across), and is inside only at the sides.
        #expect(Self.near(evenOdd.covered(top: 40, bottom: 60), [(0, 25), (75, 100)]))
        #expect(Self.near(evenOdd.covered(top: 20, bottom: 30), [(0, 100)]))
        #expect(Self.near(evenOdd.inside(top: 20, bottom: 30), [(0, 25), (75, 100)]))
    }

    @Test func aPathOfCurvesIsFlattenedAndScanned() {
        // A circle of radius 50 as four cubic quarter arcs, centred at (50, 50).
        let k = 0.5522847498 * 50
        let path = Path([.move(Point(x: 100, y: 50)),
                         .cubic(Point(x: 100, y: 50 + k), Point(x: 50 + k, y: 100), Point(x: 50, y: 100)),
                         .cubic(Point(x: 50 - k, y: 100), Point(x: 0, y: 50 + k), Point(x: 0, y: 50)),
                         .cubic(Point(x: 0, y: 50 - k), Point(x: 50 - k, y: 0), Point(x: 50, y: 0)),
                         .cubic(Point(x: 50 + k, y: 0), Point(x: 100, y: 50 - k), Point(x: 100, y: 50)), .close])
        let scanner = ShapeScanner(FlowShape(.path(path)))
        let inside = scanner.interior(at: 50)
        // The cubic arc strays from the true circle by 0.03 % of the radius; flattening adds its own flatness.
        #expect(Self.near(inside, [(0, 100)], within: 0.05))
        #expect(abs(scanner.minY - 0) < 1e-9 && abs(scanner.maxY - 100) < 1e-9)
    }

    @Test func theClosedFormsAgreeWithTheScannedOutline() {
        let shapes = [FlowShape(.ellipse(Rect(x: 20, y: 10, width: 160, height: 90))), FlowShape(.rect(Rect(x: 30, y: 20, width: 50, height: 40)))]
        for shape in shapes {
            let exact = ShapeOutline(shape), scanned = ShapeOutline.scanned(ShapeScanner(shape))
            if case .scanned = exact { Issue.record("a rect or an ellipse is answered in closed form") }
            for top in stride(from: 0.0, through: 110, by: 3.7) {
                let a = exact.covered(top: top, bottom: top + 12), b = scanned.covered(top: top, bottom: top + 12)
                // The flattened ellipse lies inside the true one: the closed form is as wide or wider,
                // by the flatness times the outline's slope (most near the poles).
                #expect(a.count == b.count && zip(a, b).allSatisfy { $0.lower <= $1.lower + 1e-9 && $0.upper >= $1.upper - 1e-9
                    && $1.lower - $0.lower < 1 && $0.upper - $1.upper < 1 }, "covered at \(top): \(a) \(b)")
                let c = exact.inside(top: top, bottom: top + 12), d = scanned.inside(top: top, bottom: top + 12)
                #expect(c.count == d.count && zip(c, d).allSatisfy { abs($0.lower - $1.lower) < 1 && abs($0.upper - $1.upper) < 1 },
                        "inside at \(top): \(c) \(d)")
            }
        }
    }

    @Test func intervalArithmetic() {
        let free = [Interval(lower: 0, upper: 100), Interval(lower: 150, upper: 300)]
        #expect(Intervals.subtracting([Interval(lower: 50, upper: 200)], from: free)
            == [Interval(lower: 0, upper: 50), Interval(lower: 200, upper: 300)])
        // A cut of no width leaves the free intervals whole.
        #expect(Intervals.subtracting([Interval(lower: 50, upper: 50)], from: free) == free)
        #expect(Intervals.intersecting(free, [Interval(lower: 90, upper: 160)])
            == [Interval(lower: 90, upper: 100), Interval(lower: 150, upper: 160)])
        #expect(Intervals.merged([Interval(lower: 5, upper: 8), Interval(lower: 0, upper: 5), Interval(lower: 10, upper: 12)])
            == [Interval(lower: 0, upper: 8), Interval(lower: 10, upper: 12)])
    }
}
