/// The scroll position as a paragraph and the offset of the visible top from that paragraph's
/// top. When heights above change (estimates replaced by measurements, edits), the anchor keeps
/// the visible content still and the content offset absorbs the change.
struct ScrollAnchor: Equatable {
    var paragraph: ParagraphID
    var offset: Double
}
