import Foundation

/// A selection (`NSTextSelection`): its ranges (empty: a caret), which line a caret at a wrap
/// belongs to (`affinity`), the unit it was made in (`granularity`), its anchor and head, and the
/// marked (uncommitted) text.
public struct TextSelection: Equatable, Sendable {
    /// At a line wrap, a caret belongs to the end of the line before (`upstream`) or the start of
    /// the next (`downstream`).
    public enum Affinity: String, Sendable, CaseIterable {
        /// With the text before: at a wrap, the end of the line before.
        case upstream
        /// With the text after: at a wrap, the start of the next line.
        case downstream
    }

    /// The unit a selection was made in, and extends by.
    public enum Granularity: String, Sendable, CaseIterable {
        /// Made and extended by grapheme clusters.
        case character
        /// By words (a double tap).
        case word
        /// By lines.
        case line
        /// By sentences.
        case sentence
        /// By paragraphs (a triple tap).
        case paragraph
    }

    /// The selected ranges in text order; an empty range is a caret.
    public var textRanges: [TextRange]
    /// Which line a caret at a wrap belongs to.
    public var affinity: Affinity
    /// The unit the selection was made in.
    public var granularity: Granularity
    /// Whether the selection is read logically (in text order) rather than visually. False
    /// unless set, as TextKit's selections are at run time: STTextView finds its insertion
    /// points as the selections that are not logical and hold an empty range, and a selection
    /// made with `NSTextSelection(range:affinity:granularity:)` shows one. TextReel never reads it.
    public var isLogical = false
    /// Where an extending selection started, and where it now ends (the caret's side).
    public var anchor: TextLocation
    /// The end that moves when the selection is extended (the caret's side).
    public var head: TextLocation
    /// Text typed but not committed (an input method's), underlined.
    public var markedTextRange: TextRange?

    /// A caret at `location`.
    public init(_ location: TextLocation, affinity: Affinity = .downstream) {
        textRanges = [TextRange(location: location)]
        self.affinity = affinity
        granularity = .character
        anchor = location
        head = location
    }

    /// The selection from `anchor` to `head` (in either order) in one paragraph or across several.
    public init(anchor: TextLocation, head: TextLocation, affinity: Affinity = .downstream, granularity: Granularity = .character,
                in manager: TextLayoutManager) {
        let forward = manager.offset(from: anchor, to: head) >= 0
        textRanges = [TextRange(start: forward ? anchor : head, end: forward ? head : anchor)]
        self.affinity = affinity
        self.granularity = granularity
        self.anchor = anchor
        self.head = head
    }

    /// True for a caret.
    public var isEmpty: Bool { textRanges.allSatisfy(\.isEmpty) }
}
