/*
The sample's two delegates, ported by renaming only (NSTextLayoutManager → TextLayoutManager,
NSTextLocation → TextLocation, NSTextElement → TextElement, NSTextLayoutFragment →
TextLayoutFragment, NSTextContentStorage → TextContentStorage, NSTextParagraph → TextParagraph,
NSFont → Font, NSColor → Color, NS…Delegate → …Delegate): the layout-manager delegate of the
sample's TextDocumentView and the content-storage delegate of its TextDocumentViewController.
Their classes here are a TextView subclass and a plain controller.
*/

import Foundation
import TextReelMarkdown

extension NSAttributedString.Key {
    public static var commentDepth: NSAttributedString.Key {
        return NSAttributedString.Key("commentDepth")
    }
}

/// The sample's document view, as a TextView: its layout-manager delegate returns bubbles for
/// comments.
class TextDocumentView: TextView, TextLayoutManagerDelegate {
    func textLayoutManager(_ textLayoutManager: TextLayoutManager, textLayoutFragmentFor location: TextLocation,
                           in textElement: TextElement) -> TextLayoutFragment {
        let index = textLayoutManager.offset(from: textLayoutManager.documentRange.location, to: location)
        let commentDepthValue = textContentStorage!.textStorage!.attribute(.commentDepth, at: index, effectiveRange: nil) as! NSNumber?
        if commentDepthValue != nil {
            let layoutFragment = BubbleLayoutFragment(textElement: textElement, range: textElement.elementRange)
            layoutFragment.commentDepth = commentDepthValue!.uintValue
            return layoutFragment
        } else {
            return TextLayoutFragment(textElement: textElement, range: textElement.elementRange)
        }
    }
}

/// The sample's view controller, as far as its content-storage delegate goes.
class TextDocumentViewController: TextContentStorageDelegate {
    var commentColor: Color { return .white }

    var commentFont: Font {
        var commentFont = Font.preferredFont(forTextStyle: .title3, options: [:])
        let commentFontDescriptor = commentFont.fontDescriptor.withSymbolicTraits(.italic)
        commentFont = Font(descriptor: commentFontDescriptor, size: commentFont.pointSize)!
        return commentFont
    }

    // MARK: - NSTextContentStorageDelegate

    func textContentStorage(_ textContentStorage: TextContentStorage, textParagraphWith range: NSRange) -> TextParagraph? {
        // In this method, we'll inject some attributes for display, without modifying the text storage directly.
        var paragraphWithDisplayAttributes: TextParagraph? = nil

        // First, get a copy of the paragraph from the original text storage.
        let originalText = textContentStorage.textStorage!.attributedSubstring(from: range)
        if originalText.attribute(.commentDepth, at: 0, effectiveRange: nil) != nil {
            // Use white colored text to make our comments visible against the bright background.
            let displayAttributes: [NSAttributedString.Key: AnyObject] = [.font: commentFont, .foregroundColor: commentColor]
            let textWithDisplayAttributes = NSMutableAttributedString(attributedString: originalText)
            // Use the display attributes for the text of the comment itself, without the reaction.
            // The last character is the newline, second to last is the attachment character for the reaction.
            let rangeForDisplayAttributes = NSRange(location: 0, length: textWithDisplayAttributes.length - 2)
            textWithDisplayAttributes.addAttributes(displayAttributes, range: rangeForDisplayAttributes)

            // Create our new paragraph with our display attributes.
            paragraphWithDisplayAttributes = TextParagraph(attributedString: textWithDisplayAttributes)
        } else {
            return nil
        }
        // If the original paragraph wasn't a comment, this return value will be nil.
        // The text content storage will use the original paragraph in this case.
        return paragraphWithDisplayAttributes
    }
}
