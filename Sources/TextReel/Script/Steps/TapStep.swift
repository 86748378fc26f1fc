import Foundation

/// `{tap: {x: 120, y: 80, count: 2}}`: a tap at a point of the view (points from its top left):
/// a caret for one, the word for two, the paragraph for three.
public struct TapStep: ScriptStep, Equatable {
    /// Where, in the view's points from its top left.
    public var x: Double, y: Double
    /// Taps in a row: 1 a caret, 2 a word, 3 a paragraph.
    public var count: Int

    /// A tap of `count` at (`x`, `y`).
    public init(x: Double, y: Double, count: Int = 1) { self.x = x; self.y = y; self.count = count }

    public static let keys = ["tap"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let t = try step.object(allowed: ["x", "y", "count"])
        return TapStep(x: try t.number("x", in: 0...16384), y: try t.number("y", in: 0...16384), count: Int(try t.number("count", default: 1, in: 1...3)))
    }

    public var json5: String {
        "{tap: {x: \(JSON5Writer.number(x)), y: \(JSON5Writer.number(y))" + (count != 1 ? ", count: \(count)" : "") + "}}"
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        let point = CGPoint(x: x, y: view.visibleRect.minY + y)
        view.textLayoutManager.textSelections = view.textLayoutManager.textSelectionNavigation.textSelections(interactingAt: point, clickCount: count)
        return nil
    }

}
