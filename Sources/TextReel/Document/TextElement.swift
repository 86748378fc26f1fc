import Foundation

/// A piece of content the layout manager lays out into one fragment (`NSTextElement`): in
/// TextReel, a `TextParagraph`. An element of your own (TextKit's `NSTextParagraph` subclasses)
/// says which paragraph it lays out as, so a fragment made for any element has text to shape.
public protocol TextElement {
    /// Where the element is in the document (nil when it is not in one).
    var elementRange: TextRange? { get }
    /// The paragraph a fragment for this element shapes and draws.
    var textParagraph: TextParagraph { get }
}

extension TextParagraph: TextElement {
    public var textParagraph: TextParagraph { self }

    /// From the paragraph's start to its end, by its id (so the range survives edits elsewhere).
    public var elementRange: TextRange? { wholeRange }

    /// From the paragraph's start to its end.
    var wholeRange: TextRange {
        TextRange(start: TextLocation(paragraph: id), end: TextLocation(paragraph: id, offset: text.utf16.count))
    }
}
