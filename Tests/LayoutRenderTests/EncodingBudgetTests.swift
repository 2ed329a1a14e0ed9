import CCairo
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// A large PNG's compression is most of its cost, so the encoder looks at the request's budget
/// each time it writes (`ByteSink`). Held here by counting writes, not by timing: a wall-clock
/// bound fails whenever the machine is busy, and says nothing about where the encoder stopped.
@Suite struct EncodingBudgetTests {
    /// A 2,000 × 2,000 picture with a gradient, so its PNG takes many writes.
    static func withSurface<T>(_ body: (OpaquePointer) -> T) -> T {
        TestPictures.surface(width: 2000, height: 2000, { cr in
            TestPictures.paintDiagonalGradient(cr, width: 2000, height: 2000, from: (0.9, 0.2, 0.1), to: (0.1, 0.3, 0.8))
        }, body)
    }

    @Test func aSpentBudgetStopsThePNGAtItsFirstWrite() {
        Self.withSurface { surface in
            let whole = ByteSink()
            #expect(TestPictures.writePNG(surface, into: whole) == CAIRO_STATUS_SUCCESS)
            #expect(whole.writes > 10, "the control took \(whole.writes) writes: too few to show an early stop")
            #expect(whole.stopped == nil && whole.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))

            let budget = WorkBudget()
            budget.cancel()
            let stopped = ByteSink(budget: budget)
            #expect(TestPictures.writePNG(surface, into: stopped) == CAIRO_STATUS_WRITE_ERROR)
            #expect(stopped.writes == 1, "the encoder went on for \(stopped.writes) writes after the first was refused")
            #expect(stopped.bytes.isEmpty && stopped.stopped?.code == .cancelled)
        }
    }

    @Test func aPastDeadlineStopsThePNGAtItsFirstWrite() {
        Self.withSurface { surface in
            let late = ByteSink(budget: WorkBudget(deadline: 1))
            #expect(TestPictures.writePNG(surface, into: late) == CAIRO_STATUS_WRITE_ERROR)
            #expect(late.writes == 1 && late.stopped?.code == .deadlineExceeded)
        }
    }

    /// The renderer hands its budget to the encoder: a budget spent while drawing is seen only
    /// there (nothing between drawing and encoding looks at it).
    @Test func theRendererEncodesUnderItsBudget() {
        let budget = WorkBudget()
        do {
            _ = try RenderTests.renderer.draw(size: Size(width: 2000, height: 2000), format: .png, scale: 1, budget: budget) { cr, _ in
                cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
                cairo_paint(cr)
                budget.cancel()
            }
            Issue.record("the picture was encoded whole under a cancelled budget")
        } catch let error as LayoutError {
            #expect(error.code == .cancelled, "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        do {
            let unlimited = try RenderTests.renderer.draw(size: Size(width: 200, height: 200), format: .png, scale: 1, budget: .unlimited) { cr, _ in
                cairo_paint(cr)
            }
            #expect(unlimited.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        } catch {
            Issue.record("an unlimited budget failed: \(error)")
        }
    }
}
