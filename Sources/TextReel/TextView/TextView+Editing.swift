import Foundation

/// Edits: each replaces, inserts or removes whole paragraphs, as TextKit's content storage does.
/// The scroll anchor names a paragraph, so edits above the viewport keep the visible content still.
extension TextView {
    private func checkIndex(_ index: Int) throws {
        guard index >= 0, index < textLayoutManager.paragraphCount else {
            throw TextReelError("paragraph \(index) does not exist; the document has paragraphs 0 to \(textLayoutManager.paragraphCount - 1)")
        }
    }

    /// Inserts plain text into paragraph `index` before character `offset`.
    public func insertText(_ text: String, inParagraphAt index: Int, atCharacter offset: Int) throws {
        try checkIndex(index)
        let old = document.paragraphs[index]
        let edited = try old.inserting(text, atCharacter: offset)
        try document.checkEdit(adding: [edited], removing: old, at: index)
        if let at = old.utf8Offset(ofCharacter: offset) { moveSelections(in: old.id) { $0 >= at ? $0 + text.utf8.count : $0 } }
        textLayoutManager.replaceParagraph(at: index, with: edited)
        attachmentHost.paragraphReplaced(old, with: edited)
        setNeedsLayout()
    }

    /// Deletes characters from paragraph `index`.
    public func deleteText(inParagraphAt index: Int, fromCharacter from: Int, length: Int) throws {
        try checkIndex(index)
        let old = document.paragraphs[index]
        let edited = try old.deleting(fromCharacter: from, length: length)
        if let start = old.utf8Offset(ofCharacter: from), let end = old.utf8Offset(ofCharacter: from + length) {
            moveSelections(in: old.id) { $0 <= start ? $0 : max($0 - (end - start), start) }
        }
        textLayoutManager.replaceParagraph(at: index, with: edited)
        attachmentHost.paragraphReplaced(old, with: edited)
        setNeedsLayout()
    }

    /// Inserts the blocks of `markdown` after paragraph `index` (-1: at the start). Returns how many.
    @discardableResult
    public func insertParagraphs(markdown: String, after index: Int) throws -> Int {
        guard index >= -1, index < textLayoutManager.paragraphCount else { try checkIndex(index); return 0 }
        let parsed = try TextDocument(markdown: markdown, baseURL: document.baseURL, limits: document.limits, attachments: providers.kinds)
        guard parsed.count > 0 else {
            throw TextReelError("the Markdown \(String(reflecting: String(markdown.prefix(40)))) makes no paragraph (blank, a link definition or an empty block); insert at least one block")
        }
        try document.checkEdit(adding: Array(parsed.paragraphs), removing: nil, at: index + 1)
        for (offset, paragraph) in parsed.paragraphs.enumerated() {
            textLayoutManager.insertParagraph(paragraph.with(id: textLayoutManager.makeParagraphID()), at: index + 1 + offset)
        }
        setNeedsLayout()
        return parsed.count
    }

    /// Removes paragraph `index`. When it held the scroll anchor, the anchor moves to the
    /// paragraph that takes its place.
    public func deleteParagraph(at index: Int) throws {
        try checkIndex(index)
        guard textLayoutManager.paragraphCount > 1 else {
            throw TextReelError("cannot delete the last remaining paragraph")
        }
        let old = document.paragraphs[index]
        let id = old.id
        // A selection in it moves to the start of the paragraph taking its place (the end of the
        // one before, for the last).
        let next = index + 1 < textLayoutManager.paragraphCount ? TextLocation(paragraph: document.paragraphs[index + 1].id)
            : TextLocation(paragraph: document.paragraphs[index - 1].id, offset: document.paragraphs[index - 1].text.utf8.count)
        textLayoutManager.textSelections = textLayoutManager.textSelections.map { selection in
            guard selection.textRanges.contains(where: { $0.start.paragraph == id || $0.end.paragraph == id }) else { return selection }
            return TextSelection(next)
        }
        textLayoutManager.removeParagraph(at: index)
        attachmentHost.paragraphReplaced(old, with: nil)
        scrollPosition.paragraphRemoved(id, replacementIndex: min(index, textLayoutManager.paragraphCount - 1))
        setNeedsLayout()
    }

    func setNeedsLayout() { textViewportLayoutController.setNeedsLayout() }

    /// Moves the selections' offsets in paragraph `id` through `move` (an edit of its text).
    private func moveSelections(in id: ParagraphID, _ move: (Int) -> Int) {
        func moved(_ l: TextLocation) -> TextLocation { l.paragraph == id ? TextLocation(paragraph: id, offset: move(l.offset)) : l }
        textLayoutManager.textSelections = textLayoutManager.textSelections.map { selection in
            var s = selection
            s.textRanges = s.textRanges.map { TextRange(start: moved($0.start), end: moved($0.end)) }
            s.anchor = moved(s.anchor)
            s.head = moved(s.head)
            return s
        }
    }
}
