import Foundation

/// The reader a document was read with, for what needs it after reading: the blocks of a text
/// inserted into it, read as the document was, and its code coloured again after an edit. The
/// document carries it (`TextDocument.format`), so the engine names no reader: the Markdown
/// reader's is `MarkdownFormat`; a document built from paragraphs has none.
public protocol DocumentFormat: Sendable {
    /// The paragraphs of `text`, read as `document` was (its folder and limits), with the
    /// attachment `kinds` registered now.
    func paragraphs(of text: String, like document: TextDocument, kinds: AttachmentKinds) throws -> [TextParagraph]
    /// The language a code block's info string names, when its code can be coloured.
    func language(ofInfo info: String) -> String?
    /// Consecutive bands of one code block coloured (their `AttributeVocabulary.syntaxClass`
    /// runs and start states), the first from its start state; with `syncAfter` (the band
    /// edited), stopping at the first later band whose start state has not changed. The bands
    /// coloured (a prefix of `bands`), or nil when the language cannot be coloured.
    func highlighted(_ bands: [TextParagraph], language: String, syncAfter: Int?) -> [TextParagraph]?
}
