import Foundation

/// `{invalidate: "layout"}` or `{invalidate: "rendering"}`: the whole document's layout, or only
/// its drawing, is invalidated, as TextKit code does after changing a setting its fragments draw
/// by (`invalidateLayout(for:)`, `invalidateRenderingAttributes(for:)`). The explorer checks that
/// no frame after it is drawn from a surface from before it.
public struct InvalidateStep: ScriptStep, Equatable {
    /// What is invalidated.
    public enum Scope: String, Sendable, CaseIterable {
        /// Layout and drawing.
        case layout
        /// Drawing only.
        case rendering
    }
    /// What is invalidated.
    public var scope: Scope

    /// Invalidates `scope` over the whole document.
    public init(_ scope: Scope) { self.scope = scope }

    public static let keys = ["invalidate"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let name = try step.step.required(String.self, key)
        guard let scope = Scope(rawValue: name) else {
            throw step.step.impossible(key, "'\(name)' is not something to invalidate; expected layout or rendering")
        }
        return InvalidateStep(scope)
    }

    public var json5: String { "{invalidate: \"\(scope.rawValue)\"}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let manager = runner.view.textLayoutManager
        switch scope {
        case .layout: manager.invalidateLayout(for: manager.documentRange)
        case .rendering: manager.invalidateRenderingAttributes(for: manager.documentRange)
        }
        runner.view.textViewportLayoutController.setNeedsLayout()
        return nil
    }

}
