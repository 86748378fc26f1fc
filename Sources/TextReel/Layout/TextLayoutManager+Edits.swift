import Foundation

/// Edits of paragraphs, as the text view makes them: the fragments, heights, offsets and surfaces
/// they touch are dropped or moved, the rest kept.
extension TextLayoutManager {
    /// Replaces paragraph `index` (an edit): its fragment is dropped and re-shaped when needed.
    func replaceParagraph(at index: Int, with paragraph: TextParagraph) {
        forgetRendering(of: document.paragraphs[index].id)
        shaped[document.paragraphs[index].id] = nil
        let old = document.paragraphs[index]
        let wasHeading = old.kind.isHeading
        document.replaceParagraph(at: index, with: paragraph)
        offsets.replaced(at: index)
        // An edit of attributes only (a highlighter's font) keeps the height measured before as
        // its estimate until it is laid out again: nearer than a fresh estimate.
        let sameText = old.text == paragraph.text && old.kind == paragraph.kind
        heights.setHeight(sameText ? heights.height(at: index) : estimator.estimate(paragraph), at: index, measured: false)
        if wasHeading != paragraph.kind.isHeading { reshapeForNeighbour(at: index - 1) }
    }

    func insertParagraph(_ paragraph: TextParagraph, at index: Int) {
        touchHeights(near: index)
        let nextWasHeading = index < document.paragraphs.count && document.paragraphs[index].kind.isHeading
        document.insertParagraph(paragraph, at: index)
        offsets.inserted(at: index)
        heights.insert(estimator.estimate(paragraph), at: index)
        if nextWasHeading != paragraph.kind.isHeading { reshapeForNeighbour(at: index - 1) }
        if index == 0 { reshapeForNeighbour(at: 1) }
    }

    func removeParagraph(at index: Int) {
        forgetRendering(of: document.paragraphs[index].id)
        shaped[document.paragraphs[index].id] = nil
        touchHeights(near: index)
        let wasHeading = document.paragraphs[index].kind.isHeading
        document.removeParagraph(at: index)
        offsets.removed(at: index)
        heights.remove(at: index)
        let nextIsHeading = index < document.paragraphs.count && document.paragraphs[index].kind.isHeading
        if wasHeading != nextIsHeading { reshapeForNeighbour(at: index - 1) }
        if index == 0 { reshapeForNeighbour(at: 0) }
    }

    /// An edited or removed paragraph's rendering attributes and prepared form go, and its
    /// validator runs again.
    private func forgetRendering(of id: ParagraphID) {
        prepared[id] = nil
        renderingAttributes.forget(id)
        validatedRendering.remove(id)
    }

    /// The paragraph at `index` has a new neighbour, and its spacing depends on its neighbours
    /// (the first has no space above; space before a heading collapses): it is shaped and drawn
    /// again, as a fresh layout of the edited document would.
    private func reshapeForNeighbour(at index: Int) {
        guard index >= 0, index < document.paragraphs.count else { return }
        shaped[document.paragraphs[index].id] = nil
        // Measured again when next laid out; until then, its height as it was.
        heights.setHeight(heights.height(at: index), at: index, measured: false)
        invalidateSurfaces(index...index)
    }

    /// A new container width invalidates every fragment and re-estimates every height.
    func setContainerWidth(_ width: Double) {
        guard width != containerWidth else { return }
        containerWidth = width
        shaped.removeAll()
        estimator = HeightEstimator(theme: theme, containerWidth: width)
        heights = makeLazyIndex()
    }

    func makeParagraphID() -> ParagraphID { document.makeParagraphID() }

    /// Computes the lazy estimates of the leaf holding `index` while the document still matches
    /// the index: a lazy leaf estimated after the splice would read shifted (or missing)
    /// paragraphs. (Deleting the first paragraph before any pass crashed on exactly that.)
    private func touchHeights(near index: Int) {
        guard heights.count > 0 else { return }
        _ = heights.height(at: min(index, heights.count - 1))
    }
}
