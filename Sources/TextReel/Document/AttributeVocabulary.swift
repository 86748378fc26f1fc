import Foundation

/// The attributes a document's reader sets and drawing reads: the engine's words, which any reader
/// fills (the Markdown reader, code building paragraphs), so drawing names no reader.
public enum AttributeVocabulary {
    /// Over each paragraph of a footnote: drawn after a thin rule instead of a quote's bar.
    public static let footnote = "TextReelFootnote"
    /// Over a run of highlighted code: its syntax class ("k", "s2", Pygments' short names), which
    /// the theme colours.
    public static let syntaxClass = "TextReel.syntax"
}
