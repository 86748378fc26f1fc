import Foundation

/// What a layout manager asks its delegate (`NSTextLayoutManagerDelegate`): which fragment lays
/// out an element, so that a subclass can pad, space and draw it.
public protocol TextLayoutManagerDelegate: AnyObject {
    /// The fragment for `textElement`, which starts at `location`; return
    /// `TextLayoutFragment(textElement: textElement, range: textElement.elementRange)` for the
    /// standard one. Asked once per shaping of a paragraph (again after an edit or a resize).
    func textLayoutManager(_ textLayoutManager: TextLayoutManager, textLayoutFragmentFor location: TextLocation,
                           in textElement: TextElement) -> TextLayoutFragment
}
