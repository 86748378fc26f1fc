import Foundation

/// `{resize: {width, height}}`: a new viewport size; every paragraph re-wraps and the anchor
/// paragraph stays at the top.
public struct ResizeStep: ScriptStep, Equatable {
    /// New viewport width, in points.
    public var width: Double
    /// New viewport height, in points.
    public var height: Double
    /// A step resizing the viewport to `width` × `height` points.
    public init(width: Double, height: Double) { self.width = width; self.height = height }

    public static let keys = ["resize"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let r = try step.object(allowed: ["width", "height"])
        return ResizeStep(width: try r.number("width", in: 1...16384), height: try r.number("height", in: 1...16384))
    }

    public var json5: String { "{resize: {width: \(JSON5Writer.number(width)), height: \(JSON5Writer.number(height))}}" }

    /// A size Cairo cannot draw stops the script here, before the first frame.
    public func check(for view: TextView) throws {
        do { try ViewportLimits.check(CGSize(width: width, height: height), scale: view.scale, theme: view.theme) } catch let error as TextReelError {
            throw TextReelError("resize: " + error.message)
        }
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        runner.view.resize(to: CGSize(width: width, height: height))
        return nil
    }

}
