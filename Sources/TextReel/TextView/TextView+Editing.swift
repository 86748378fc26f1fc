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
        textLayoutManager.replaceParagraph(at: index, with: edited)
        attachmentHost.paragraphReplaced(old, with: edited)
        setNeedsLayout()
    }

    /// Deletes characters from paragraph `index`.
    public func deleteText(inParagraphAt index: Int, fromCharacter from: Int, length: Int) throws {
        try checkIndex(index)
        let old = document.paragraphs[index]
        let edited = try old.deleting(fromCharacter: from, length: length)
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
        textLayoutManager.removeParagraph(at: index)
        attachmentHost.paragraphReplaced(old, with: nil)
        scrollPosition.paragraphRemoved(id, replacementIndex: min(index, textLayoutManager.paragraphCount - 1))
        setNeedsLayout()
    }

    func setNeedsLayout() { textViewportLayoutController.setNeedsLayout() }
}
