import Foundation

/// How a paragraph's lines are set (`NSParagraphStyle` / `NSMutableParagraphStyle`), given with
/// `.paragraphStyle` over the paragraph's first character: alignment, indents (points from the
/// text column's edges), extra space between lines and around the paragraph. A class, as in
/// UIKit, so `[NSAttributedString.Key: AnyObject]` dictionaries take it; a paragraph keeps a copy
/// of its values.
public class ParagraphStyle: CustomStringConvertible {
    /// How lines sit between the indents.
    public var alignment: TextAlignment = .natural
    /// Indent of the first line, from the leading edge.
    public var firstLineHeadIndent: CGFloat = 0
    /// Indent of the other lines, from the leading edge.
    public var headIndent: CGFloat = 0
    /// Positive: the lines' end, from the leading edge; zero or negative: inset from the trailing edge.
    public var tailIndent: CGFloat = 0
    /// Extra points between lines.
    public var lineSpacing: CGFloat = 0
    /// Points after the paragraph, in place of the look's (as in TextKit: 0 is none).
    public var paragraphSpacing: CGFloat = 0 { didSet { setsSpacing = true } }
    /// Points before the paragraph, in place of the look's (0 is none).
    public var paragraphSpacingBefore: CGFloat = 0 { didSet { setsSpacing = true } }
    /// Each line's natural height times this (0: unchanged). Pango shares the extra height
    /// above and below the line, as CSS's `line-height`; TextKit puts it above.
    public var lineHeightMultiple: CGFloat = 0

    /// Whether its spacing replaces the look's (see `Values.setsSpacing`): kept through a
    /// round trip of a reader's style.
    var setsSpacing = true

    /// The default style: natural alignment, no indents, no extra spacing.
    public init() {}

    /// The style with no change (`NSParagraphStyle.default`).
    public static var `default`: ParagraphStyle { ParagraphStyle() }

    init(_ values: Values) {
        alignment = values.alignment
        firstLineHeadIndent = values.firstLineHeadIndent; headIndent = values.headIndent; tailIndent = values.tailIndent
        lineSpacing = values.lineSpacing; paragraphSpacing = values.paragraphSpacing; paragraphSpacingBefore = values.paragraphSpacingBefore
        lineHeightMultiple = values.lineHeightMultiple
        setsSpacing = values.setsSpacing
    }

    /// Its values, as a paragraph keeps them.
    package var values: Values {
        Values(alignment: alignment, firstLineHeadIndent: firstLineHeadIndent, headIndent: headIndent, tailIndent: tailIndent,
               lineSpacing: lineSpacing, paragraphSpacing: paragraphSpacing, paragraphSpacingBefore: paragraphSpacingBefore,
               lineHeightMultiple: lineHeightMultiple, setsSpacing: setsSpacing)
    }

    /// A style's values, as a paragraph keeps them (hashable, so paragraphs stay values).
    public struct Values: Hashable, Sendable {
        /// How lines sit between the indents.
        public var alignment: TextAlignment
        /// Indents and extra spacing in points, as the `ParagraphStyle` properties of the same names.
        public var firstLineHeadIndent, headIndent, tailIndent, lineSpacing, paragraphSpacing, paragraphSpacingBefore: Double
        /// As `ParagraphStyle.lineHeightMultiple`.
        public var lineHeightMultiple: Double = 0
        /// Whether `paragraphSpacing` and `paragraphSpacingBefore` are the space around the
        /// paragraph, replacing the look's, as TextKit's are (a style code makes, 0 included);
        /// false for a style a document reader sets only to align or indent a block.
        public var setsSpacing = true
    }

    public var description: String { "\(values)" }
}

/// The mutable form TextKit code makes (`NSMutableParagraphStyle()`).
public final class MutableParagraphStyle: ParagraphStyle {}

/// How lines sit between the indents (`NSTextAlignment`): `natural` follows the writing direction.
public enum TextAlignment: Int, Hashable, Sendable {
    /// Flush with the left indent.
    case left
    /// Centred between the indents.
    case center
    /// Flush with the right indent.
    case right
    /// Stretched to both indents, but for a paragraph's last line.
    case justified
    /// Left in left-to-right text, right in right-to-left text.
    case natural
}

extension NSAttributedString.Key {
    /// A `ParagraphStyle`, read at the paragraph's first character.
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
}
