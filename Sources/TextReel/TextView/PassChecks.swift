import Foundation

/// The invariants and measures checked after every layout pass (by the library, not only in
/// tests), reported per frame under `checks` in `events.jsonl` and summed in `summary.json`.
public struct PassChecks: Codable, Sendable, Equatable {
    /// Broken invariants in words: an empty viewport range, a gap or overlap between fragments,
    /// fragments out of document order, above the top or past the end, an uncovered visible rect.
    public var errors: [String] = []
    /// Points the content under the scroll anchor moved on screen other than by scrolling
    /// (corrections absorbed by the anchor count 0).
    public var jump = 0.0
    /// Attachment views made for the first time, made again, and dropped in this pass.
    public var created = 0
    /// Attachment views made again in this pass.
    public var recreated = 0
    /// Attachment views dropped in this pass.
    public var discarded = 0
    /// Attachments drawn as loading again after they had loaded, while they never left the
    /// viewport bounds or left them under a policy that should have kept their view.
    public var flicker: [String] = []
    /// Relative error of the height estimates of the paragraphs measured so far:
    /// (Σ estimated − Σ measured) / Σ measured.
    public var estimateError = 0.0
    /// After a step that reveals it (typing, a move, `reveal`), the caret is outside the visible
    /// rect: a broken promise of `scrollRangeToVisible`, checked as budget `caretHidden`.
    public var caretHidden = false

    /// No errors, nothing measured.
    public init() {}

    /// Tolerance for comparing positions that are sums of many heights.
    static let epsilon = 0.01

    /// Checks the fragments of a pass against the visible rect and the document's content area
    /// (`contentTop` to `contentBottom`, the insets excluded).
    static func geometryErrors(fragments: [LayoutPass.Fragment], visible: LayoutRect, paragraphCount: Int,
                               contentTop: Double, contentBottom: Double, positionOf: (Int) -> Double) -> [String] {
        guard paragraphCount > 0 else { return [] }
        guard let first = fragments.first, let last = fragments.last else {
            return ["the viewport range is empty although the document has \(paragraphCount) paragraph\(paragraphCount == 1 ? "" : "s")"]
        }
        var errors: [String] = []
        let e = epsilon
        for (a, b) in zip(fragments, fragments.dropFirst()) {
            if b.index != a.index + 1 {
                errors.append("paragraph \(b.index) follows paragraph \(a.index) (expected \(a.index + 1))")
            }
            let gap = b.frame.minY - a.frame.maxY
            if gap > e { errors.append("gap of \(fmt(gap)) pt between paragraphs \(a.index) and \(b.index)") }
            if gap < -e { errors.append("paragraphs \(a.index) and \(b.index) overlap by \(fmt(-gap)) pt") }
        }
        for f in fragments {
            if f.frame.minY < contentTop - e { errors.append("paragraph \(f.index) starts at y \(fmt(f.frame.minY)), above the top (\(fmt(contentTop)))") }
            if f.frame.maxY > contentBottom + e { errors.append("paragraph \(f.index) ends at y \(fmt(f.frame.maxY)), past the document's end (\(fmt(contentBottom)))") }
            let expected = positionOf(f.index)
            if abs(f.frame.minY - expected) > e {
                errors.append("paragraph \(f.index) is drawn at y \(fmt(f.frame.minY)) but the layout manager places it at \(fmt(expected))")
            }
        }
        if first.frame.minY > max(visible.minY, contentTop) + e {
            errors.append("the visible rect from y \(fmt(max(visible.minY, contentTop))) to \(fmt(first.frame.minY)) has no fragment")
        }
        if last.frame.maxY < min(visible.maxY, contentBottom) - e {
            errors.append("the visible rect from y \(fmt(last.frame.maxY)) to \(fmt(min(visible.maxY, contentBottom))) has no fragment")
        }
        return errors
    }

    /// A number as messages write it.
    static func fmt(_ value: Double) -> String { NumberText.text(value, decimals: 2) }
}
