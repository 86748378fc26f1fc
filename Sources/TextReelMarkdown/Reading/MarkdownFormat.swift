import Foundation
import TextReel

/// GitHub-flavoured Markdown as a document's format: inserted text is read by `MarkdownReader`,
/// code is coloured by `SyntaxHighlighter` (Pygments, in the helper process).
public struct MarkdownFormat: DocumentFormat {
    /// The format; it holds nothing (the reading options are the document's).
    public init() {}

    public func paragraphs(of text: String, like document: TextDocument, kinds: AttachmentKinds) throws -> [TextParagraph] {
        Array(try TextDocument(markdown: text, baseURL: document.baseURL, limits: document.limits, attachments: kinds).paragraphs)
    }

    public func language(ofInfo info: String) -> String? { SyntaxHighlighter.language(ofInfo: info) }

    public func highlighted(_ bands: [TextParagraph], language: String, syncAfter: Int?) -> [TextParagraph]? {
        SyntaxHighlighter.highlighted(bands, language: language, syncAfter: syncAfter)
    }
}
