import Foundation

/// A piece of content the layout manager lays out into one fragment (`NSTextElement`): in
/// TextReel, a `TextParagraph`.
public protocol TextElement {
    /// Where the element is in the document (nil when it is not in one).
    var elementRange: TextRange? { get }
}

extension TextParagraph: TextElement {
    /// From the paragraph's start to its end, by its id (so the range survives edits elsewhere).
    public var elementRange: TextRange? {
        TextRange(start: TextLocation(paragraph: id), end: TextLocation(paragraph: id, offset: text.utf8.count))
    }
}
