import Foundation

/// `{move: {direction: "left", destination: "character", extending: false, count: 1}}`: the
/// selection moved as arrow keys move it (`TextSelectionNavigation`), then revealed.
public struct MoveStep: ScriptStep, Equatable {
    /// Which way the head moves.
    public var direction: TextSelectionNavigation.Direction
    /// How far each move goes: a character, a word, to a line's or paragraph's end, the document's.
    public var destination: TextSelectionNavigation.Destination
    /// Keeps the anchor: the move grows or shrinks the selection (shift held).
    public var extending: Bool
    /// How many moves, one after the other.
    public var count: Int

    /// A move of `count` steps.
    public init(_ direction: TextSelectionNavigation.Direction, _ destination: TextSelectionNavigation.Destination = .character,
                extending: Bool = false, count: Int = 1) {
        self.direction = direction; self.destination = destination; self.extending = extending; self.count = count
    }

    public static let keys = ["move"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let m = try step.object(allowed: ["direction", "destination", "extending", "count"])
        guard m.has("direction") else { throw m.impossible("direction", "a move needs a direction: \(TextSelectionNavigation.Direction.allCases.map(\.rawValue).joined(separator: ", "))") }
        return MoveStep(try m.choice(TextSelectionNavigation.Direction.self, "direction", default: .forward),
                        try m.choice(TextSelectionNavigation.Destination.self, "destination", default: .character),
                        extending: try m.optional(Bool.self, "extending") ?? false,
                        count: Int(try m.number("count", default: 1, in: 1...10_000)))
    }

    public var json5: String {
        "{move: {direction: \"\(direction.rawValue)\", destination: \"\(destination.rawValue)\"" + (extending ? ", extending: true" : "")
            + (count != 1 ? ", count: \(count)" : "") + "}}"
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let manager = runner.view.textLayoutManager
        guard var selection = manager.textSelections.first else {
            throw TextReelError("there is no selection to move; select a place first")
        }
        for _ in 0..<count {
            guard let moved = manager.textSelectionNavigation.destinationSelection(for: selection, direction: direction,
                                                                                 destination: destination, extending: extending) else { break }
            selection = moved
        }
        manager.textSelections = [selection]
        runner.view.scrollRangeToVisible(TextRange(location: selection.head))
        return nil
    }

}
