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
        if let at = old.utf16Offset(ofCharacter: offset) { moveSelections(in: old.id) { $0 >= at ? $0 + text.utf16.count : $0 } }
        textLayoutManager.replaceParagraph(at: index, with: edited)
        attachmentHost.paragraphReplaced(old, with: [edited])
        rehighlightCode(at: index)
        setNeedsLayout()
    }

    /// Deletes characters from paragraph `index`.
    public func deleteText(inParagraphAt index: Int, fromCharacter from: Int, length: Int) throws {
        try checkIndex(index)
        let old = document.paragraphs[index]
        let edited = try old.deleting(fromCharacter: from, length: length)
        if let start = old.utf16Offset(ofCharacter: from), let end = old.utf16Offset(ofCharacter: from + length) {
            moveSelections(in: old.id) { $0 <= start ? $0 : max($0 - (end - start), start) }
        }
        textLayoutManager.replaceParagraph(at: index, with: edited)
        attachmentHost.paragraphReplaced(old, with: [edited])
        rehighlightCode(at: index)
        setNeedsLayout()
    }

    /// Inserts the blocks of `markdown` after paragraph `index` (-1: at the start). Returns how many.
    @discardableResult
    public func insertParagraphs(markdown: String, after index: Int) throws -> Int {
        guard index >= -1, index < textLayoutManager.paragraphCount else { try checkIndex(index); return 0 }
        guard let format = document.format else {
            throw TextReelError("the document was built from paragraphs, not read by a reader: it has none to read inserted text with")
        }
        let parsed = try format.paragraphs(of: markdown, like: document, kinds: providers.kinds)
        guard !parsed.isEmpty else {
            throw TextReelError("the Markdown \(String(reflecting: String(markdown.prefix(40)))) makes no paragraph (blank, a link definition or an empty block); insert at least one block")
        }
        try document.checkEdit(adding: parsed, removing: nil, at: index + 1)
        for (offset, paragraph) in parsed.enumerated() {
            textLayoutManager.insertParagraph(paragraph.with(id: textLayoutManager.makeParagraphID()), at: index + 1 + offset)
        }
        setNeedsLayout()
        return parsed.count
    }

    /// Replaces paragraphs `range` with `paragraphs` (read from another version of the document:
    /// they take new ids), as one edit of the blocks that changed: a live preview reloads a file
    /// so, only the new paragraphs shaped, the view still where the paragraph at its top stays.
    public func replaceParagraphs(in range: Range<Int>, with paragraphs: [TextParagraph]) throws {
        guard range.lowerBound >= 0, range.upperBound <= textLayoutManager.paragraphCount else {
            throw TextReelError("paragraphs \(range.lowerBound)..<\(range.upperBound) are not all in the document of \(textLayoutManager.paragraphCount)")
        }
        guard textLayoutManager.paragraphCount - range.count + paragraphs.count > 0 else {
            throw TextReelError("the document would have no paragraph left")
        }
        try document.checkEdit(adding: paragraphs, removing: nil, at: range.lowerBound)
        // The new ones first, so that a removed paragraph's anchor moves to the one in its place.
        for (offset, paragraph) in paragraphs.enumerated() {
            textLayoutManager.insertParagraph(paragraph.with(id: textLayoutManager.makeParagraphID()), at: range.lowerBound + offset)
        }
        for index in (range.lowerBound + paragraphs.count..<range.upperBound + paragraphs.count).reversed() {
            let old = document.paragraphs[index]
            textLayoutManager.removeParagraph(at: index)
            attachmentHost.paragraphReplaced(old, with: [])
            scrollPosition.paragraphRemoved(old.id, replacementIndex: min(range.lowerBound, textLayoutManager.paragraphCount - 1))
        }
        setNeedsLayout()
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
            : TextLocation(paragraph: document.paragraphs[index - 1].id, offset: document.paragraphs[index - 1].utf16Count)
        textLayoutManager.textSelections = textLayoutManager.textSelections.map { selection in
            guard selection.textRanges.contains(where: { $0.start.paragraph == id || $0.end.paragraph == id }) else { return selection }
            return TextSelection(next)
        }
        textLayoutManager.removeParagraph(at: index)
        attachmentHost.paragraphReplaced(old, with: [])
        scrollPosition.paragraphRemoved(id, replacementIndex: min(index, textLayoutManager.paragraphCount - 1))
        setNeedsLayout()
    }

    /// Joins paragraph `index + 1` onto the end of paragraph `index` (the break between them
    /// deleted, as backspace at a paragraph's start does). Selections in the second move with its
    /// text; its attachments move with it, kept or discarded as their policy says of an edit.
    public func joinParagraph(at index: Int) throws {
        try checkIndex(index)
        try checkIndex(index + 1)
        let first = document.paragraphs[index], second = document.paragraphs[index + 1]
        let joined = first.appending(second)
        try document.checkEdit(adding: [joined], removing: first, at: index)
        let shift = first.utf16Count
        moveSelections { $0.paragraph == second.id ? TextLocation(paragraph: first.id, offset: $0.offset + shift) : $0 }
        textLayoutManager.replaceParagraph(at: index, with: joined)
        attachmentHost.paragraphReplaced(first, with: [joined])
        textLayoutManager.removeParagraph(at: index + 1)
        attachmentHost.paragraphReplaced(second, with: [joined])
        scrollPosition.paragraphRemoved(second.id, replacementIndex: index)
        rehighlightCode(at: index)
        setNeedsLayout()
    }

    /// Breaks paragraph `index` in two at `offset` (UTF-16, as a `TextLocation`'s; Return typed
    /// there): the text after goes to a new paragraph below, with the selections in it and its
    /// attachments (kept or discarded as their policy says of an edit).
    public func splitParagraph(at index: Int, offset: Int) throws {
        try checkIndex(index)
        let old = document.paragraphs[index]
        guard old.characterIndex(ofUTF16: offset) != nil else {
            throw TextReelError("cannot break paragraph \(index) at offset \(offset): it is not between two characters of its \(old.utf16Count) UTF-16 units")
        }
        let (head, tail) = old.splitting(at: old.text.utf8Offset(ofUTF16: offset), newID: textLayoutManager.makeParagraphID())
        try document.checkEdit(adding: [head, tail], removing: old, at: index)
        moveSelections { $0.paragraph == old.id && $0.offset > offset ? TextLocation(paragraph: tail.id, offset: $0.offset - offset) : $0 }
        textLayoutManager.replaceParagraph(at: index, with: head)
        textLayoutManager.insertParagraph(tail, at: index + 1)
        attachmentHost.paragraphReplaced(old, with: [head, tail])
        rehighlightCode(at: index)
        rehighlightCode(at: index + 1)
        setNeedsLayout()
    }

    func setNeedsLayout() { textViewportLayoutController.setNeedsLayout() }

    /// Moves the selections' offsets in paragraph `id` through `move` (an edit of its text).
    private func moveSelections(in id: ParagraphID, _ move: (Int) -> Int) {
        moveSelections { $0.paragraph == id ? TextLocation(paragraph: id, offset: move($0.offset)) : $0 }
    }

    /// Moves every location of the selections (ranges, anchor, head, marked text) through `moved`.
    private func moveSelections(_ moved: (TextLocation) -> TextLocation) {
        func range(_ r: TextRange) -> TextRange { TextRange(start: moved(r.start), end: moved(r.end)) }
        textLayoutManager.textSelections = textLayoutManager.textSelections.map { selection in
            var s = selection
            s.textRanges = s.textRanges.map(range)
            s.anchor = moved(s.anchor)
            s.head = moved(s.head)
            s.markedTextRange = s.markedTextRange.map(range)
            return s
        }
    }
}
