import Foundation

/// A paragraph as Pango shaped it at one container width: what the typesetter hands layout, which
/// makes a `TextLayoutFragment` of it. Geometry is relative to the fragment's origin.
struct ShapedParagraph {
    let size: CGSize
    /// What drawing covers (ink may overhang the frame, but not the view's sides).
    let renderingSurfaceBounds: CGRect
    let lines: [TextLineFragment]
    /// Attachment boxes, in text order.
    let attachmentFrames: [(attachment: TextAttachment, frame: CGRect)]
    /// Where the Pango layout's origin sits.
    let layoutOrigin: CGPoint
    let style: BlockStyle
    let layout: PangoLayoutBox
    let containerWidth: Double
    /// Bytes of the list marker before the paragraph's text in the layout.
    let textShift: Int
    /// A table row's cells, one layout each where it is drawn (`layout` is the first).
    var cells: [(box: PangoLayoutBox, origin: CGPoint)] = []
    /// A table row's borders.
    var table: TableRowGeometry?
    /// The marker of the list item this block starts, when the block is no paragraph (a fence,
    /// a heading, a table): drawn beside its first line.
    var marker: (box: PangoLayoutBox, origin: CGPoint)?
}

/// Room a fragment asks for around its text: paddings narrow the lines (leading is the side the
/// text starts on), margins add space above and below.
struct FragmentInsets: Equatable {
    var leading = 0.0, trailing = 0.0, top = 0.0, bottom = 0.0
    /// The document's first paragraph: no space above it, as CSS gives a page's first block no
    /// top margin.
    var startsDocument = false
    /// A heading follows: the space between is the larger of this block's space after and the
    /// heading's above (CSS's collapsing margins), not their sum.
    var precedesHeading = false
    static let none = FragmentInsets()
}
