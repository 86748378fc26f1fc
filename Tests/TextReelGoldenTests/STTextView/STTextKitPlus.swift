import Foundation
import TextReelMarkdown

// The helpers of STTextKitPlus (krzyzanowskim/STTextKitPlus) that STTextView's invisibles and
// insertion-point code call, ported by renaming: `NSTextLineFragment` is `TextLineFragment`,
// `NSTextLayoutFragment` `TextLayoutFragment`, `NSTextLayoutManager` `TextLayoutManager`,
// `NSTextContentManager` `TextContentManager`, `NSTextRange` `TextRange`, `NSTextLocation`
// `TextLocation`, `NSTextSelection` `TextSelection`. Geometry helpers from STTextViewCommon.

extension NSRange {
    /// A Boolean value indicating whether the range is empty.
    ///
    /// Range is empty when its length is equal 0
    public var isEmpty: Bool {
        length == 0
    }

    public init(_ textRange: TextRange, in textContentManager: TextContentManager) {
        let offset = textContentManager.offset(from: textContentManager.documentRange.location, to: textRange.location)
        let length = textContentManager.offset(from: textRange.location, to: textRange.endLocation)
        self.init(location: offset, length: length)
    }

    public init(_ textLocation: TextLocation, in textContentManager: TextContentManager) {
        let offset = textContentManager.offset(from: textContentManager.documentRange.location, to: textLocation)
        self.init(location: offset, length: 0)
    }
}

extension TextLineFragment {
    /// Whether the line fragment is the extra line fragment at the end of a document.
    ///
    /// The layout manager uses the extra line fragment when the last character in a document causes a line or paragraph break. This extra line fragment has no corresponding glyph.
    public var isExtraLineFragment: Bool {
        // textLineFragment.characterRange.isEmpty the extra line fragment at the end of a document.
        characterRange.isEmpty
    }

    /// Returns a text range inside privided textLayoutFragment.
    ///
    /// Returned range is relative to the document range origin.
    /// - Parameter textLayoutFragment: Text layout fragment
    /// - Returns: Text range or nil
    public func textRange(in textLayoutFragment: TextLayoutFragment) -> TextRange? {

        guard let textContentManager = textLayoutFragment.textLayoutManager?.textContentManager else {
            assertionFailure()
            return nil
        }

        return TextRange(
            location: textContentManager.location(textLayoutFragment.rangeInElement.location, offsetBy: characterRange.location)!,
            end: textContentManager.location(textLayoutFragment.rangeInElement.location, offsetBy: characterRange.location + characterRange.length)
        )
    }
}

extension TextLayoutFragment {
    public func textLineFragment(at location: TextLocation, in textContentManager: TextContentManager? = nil) -> TextLineFragment? {
        guard let textContentManager = textContentManager ?? textLayoutManager?.textContentManager else {
            assertionFailure()
            return nil
        }

        let searchNSLocation = NSRange(location, in: textContentManager).location
        let fragmentLocation = NSRange(rangeInElement.location, in: textContentManager).location
        return textLineFragments.first { lineFragment in
            let absoluteLineRange = NSRange(location: lineFragment.characterRange.location + fragmentLocation, length: lineFragment.characterRange.length)
            return absoluteLineRange.contains(searchNSLocation)
        }
    }
}

extension TextLayoutManager {

    public func textLineFragment(at location: TextLocation) -> TextLineFragment? {
        textLayoutFragment(for: location)?.textLineFragment(at: location)
    }

    /// A text segment is both logically and visually contiguous portion of the text content inside a line fragment.
    /// Text segment is a logically and visually contiguous portion of the text content inside a line fragment that you specify with a single text range.
    /// The framework enumerates the segments visually from left to right.
    public func textSegmentFrame(in textRange: TextRange, type: TextLayoutManager.SegmentType, options: SegmentOptions = [.upstreamAffinity, .rangeNotRequired]) -> CGRect? {
        var result: CGRect? = nil
        enumerateTextSegments(in: textRange, type: type, options: options) { textSegmentRange, textSegmentFrame, baselinePosition, textContainer -> Bool in
            result = result?.union(textSegmentFrame) ?? textSegmentFrame
            return true
        }
        return result
    }

    public var insertionPointSelections: [TextSelection] {
        textSelections.filter(_textSelectionInsertionPointFilter)
    }
}

private let _textSelectionInsertionPointFilter: @Sendable (TextSelection) -> Bool = { textSelection in
    !textSelection.isLogical && textSelection.textRanges.contains(where: \.isEmpty)
}

// STTextViewCommon's geometry helpers.

extension CGPoint {
    func moved(dx: CGFloat = 0, dy: CGFloat = 0) -> CGPoint {
        // swift-corelibs-foundation has no `CGPoint.applying(_:)`: the translation by hand.
        CGPoint(x: x + dx, y: y + dy)
    }
}

extension CGRect {
    var pixelAligned: CGRect {
        NSIntegralRectWithOptions(self, AlignmentOptions.alignAllEdgesNearest)
    }
}

extension ParagraphStyle {
    var stLineHeightMultiple: CGFloat {
        if lineHeightMultiple.isAlmostZero() {
            return 1.0
        } else {
            return lineHeightMultiple
        }
    }
}

extension CGFloat {
    func isAlmostZero(
        absoluteTolerance tolerance: Self = Self.ulpOfOne.squareRoot()
    ) -> Bool {
        assert(tolerance > 0)
        return Swift.abs(self) < tolerance
    }
}
