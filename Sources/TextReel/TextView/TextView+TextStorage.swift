import Foundation

/// `TextStorage`'s edits, as edits of the view's paragraphs: `replaceCharacters` is a selection
/// replaced by typing, attribute changes replace the paragraphs they touch. Several of them in a
/// `performEditingTransaction` are laid out once, at the next pass.
extension TextView: TextStorageEditor {
    func replaceCharacters(in range: NSRange, with text: NSAttributedString?, plain: String) throws {
        let offsets = textLayoutManager.offsets
        guard range.location >= 0, range.length >= 0, range.location + range.length <= offsets.length,
              let start = offsets.location(at: range.location), let end = offsets.location(at: range.location + range.length) else {
            throw TextReelError("the range \(range.location)..<\(range.location + range.length) is outside the text's \(offsets.length) UTF-16 units")
        }
        // The view's selection is the user's: it is kept where the edit leaves it in place.
        let selections = textLayoutManager.textSelections
        selectedTextRange = TextRange(start: start, end: end)
        try insertText(plain)
        if let first = selections.first?.textRanges.first, let order = textLayoutManager.compare(first.end, start), order != .orderedDescending {
            textLayoutManager.textSelections = selections
        }
        // An attributed string's attributes are the new text's, exactly.
        if let text {
            let inserted = NSRange(location: range.location, length: (plain as NSString).length)
            try changeAttributes(in: inserted) { $0 = [:] }
            text.enumerateAttributes(in: NSRange(location: 0, length: text.length)) { attributes, local, _ in
                let values = attributes.reduce(into: [String: AttributeValue]()) { if let v = AttributeValue($1.value) { $0[$1.key.rawValue] = v } }
                try? changeAttributes(in: NSRange(location: range.location + local.location, length: local.length)) { $0 = values }
            }
        }
    }

    func changeAttributes(in range: NSRange, _ change: (inout [String: AttributeValue]) -> Void) throws {
        let offsets = textLayoutManager.offsets
        guard range.location >= 0, range.length >= 0, range.location + range.length <= offsets.length,
              let start = offsets.location(at: range.location), let end = offsets.location(at: range.location + range.length),
              let first = textLayoutManager.index(of: start.paragraph), let last = textLayoutManager.index(of: end.paragraph) else {
            throw TextReelError("the range \(range.location)..<\(range.location + range.length) is outside the text's \(offsets.length) UTF-16 units")
        }
        for index in first...last {
            let paragraph = document.paragraphs[index]
            let from = index == first ? paragraph.utf8Offset(of: start) : 0
            let to = index == last ? paragraph.utf8Offset(of: end) : paragraph.text.utf8.count
            let attributes = AttributeRun.updating(paragraph.attributes, in: from..<max(from, to), change)
            guard attributes != paragraph.attributes else { continue }
            let edited = paragraph.replacing(text: paragraph.text, runs: paragraph.runs, attachments: paragraph.attachments, attributes: attributes)
            textLayoutManager.replaceParagraph(at: index, with: edited)
            attachmentHost.paragraphReplaced(paragraph, with: [edited])
        }
        setNeedsLayout()
    }
}
