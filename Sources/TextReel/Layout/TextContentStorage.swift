import Foundation

/// What a content storage asks its delegate (`NSTextContentStorageDelegate`): the paragraph to lay
/// out for the text in `range`, restyled for display without changing the document (nil: the
/// paragraph as it is). Asked when a paragraph is first laid out, and again after it is edited.
public protocol TextContentStorageDelegate: AnyObject {
    /// The paragraph to lay out for `range` (UTF-16 units of the whole text), or nil for it as it is.
    func textContentStorage(_ textContentStorage: TextContentStorage, textParagraphWith range: NSRange) -> TextParagraph?
}

/// The document's content as TextKit's content storage offers it (`NSTextContentStorage`): the
/// attributed text (`textStorage`), and a delegate that restyles paragraphs for display. Ranges
/// and offsets count UTF-16 code units, as Foundation's strings do, with one for each paragraph
/// break.
public final class TextContentStorage: TextContentManager {
    /// Weak, as in TextKit. Setting it lays every paragraph out again.
    public weak var delegate: TextContentStorageDelegate? {
        didSet { shown.removeAll(); manager?.discardShapedFragments() }
    }
    /// The paragraph the delegate returned for each paragraph, with the paragraph it stands for.
    private var shown: [ParagraphID: (source: TextParagraph, shown: TextParagraph)] = [:]

    override init(manager: TextLayoutManager) { super.init(manager: manager) }

    /// The document's text with its attributes, read on demand.
    public var textStorage: TextStorage? { manager.map(TextStorage.init) }

    /// The paragraph to lay out for paragraph `index`: the delegate's, with the identity, kind,
    /// runs and attachments of the paragraph it stands for (only the attributes when the text is
    /// the same; a changed text keeps neither runs nor attachments).
    func displayed(_ paragraph: TextParagraph, at index: Int) -> TextParagraph {
        guard let delegate, let manager else { return paragraph }
        if let cached = shown[paragraph.id], cached.source == paragraph { return cached.shown }
        var result = paragraph
        if let returned = delegate.textContentStorage(self, textParagraphWith: manager.offsets.range(ofParagraphAt: index)) {
            result = returned.text == paragraph.text
                ? paragraph.replacing(text: paragraph.text, runs: paragraph.runs, attachments: paragraph.attachments, attributes: returned.attributes)
                : paragraph.replacing(text: returned.text, runs: [], attachments: [], attributes: returned.attributes)
        }
        shown[paragraph.id] = (paragraph, result)
        return result
    }
}

/// The document's attributed text (`NSTextStorage` as TextKit code reads it): every paragraph's
/// text and attributes, paragraphs joined by "\n", in UTF-16 offsets. Reads paragraphs as it
/// needs them; nothing is copied until asked.
public final class TextStorage {
    private let manager: TextLayoutManager

    init(_ manager: TextLayoutManager) { self.manager = manager }

    /// UTF-16 code units in the whole text.
    public var length: Int { manager.offsets.length }

    /// The whole text (every paragraph read).
    public var string: String { manager.document.paragraphs.map(\.text).joined(separator: "\n") }

    /// The value of `key` at `location`, as `NSAttributedString.attribute(_:at:effectiveRange:)`;
    /// the effective range is in the whole text's offsets.
    public func attribute(_ key: NSAttributedString.Key, at location: Int, effectiveRange range: NSRangePointer?) -> Any? {
        guard let (index, offset) = manager.offsets.paragraph(containing: location) else { return nil }
        let paragraph = manager.document.paragraphs[index]
        guard offset < paragraph.text.utf16.count else { return nil }   // the paragraph break has no attributes
        var local = NSRange()
        let value = paragraph.attribute(key, at: offset, effectiveRange: &local)
        range?.pointee = NSRange(location: local.location + (location - offset), length: local.length)
        return value
    }

    /// The text and attributes in `range` (paragraph breaks as "\n").
    public func attributedSubstring(from range: NSRange) -> NSAttributedString {
        let result = NSMutableAttributedString(string: "")
        guard let (first, firstOffset) = manager.offsets.paragraph(containing: range.location) else { return result }
        var index = first, skip = firstOffset, remaining = range.length
        while remaining > 0, index < manager.paragraphCount {
            let whole = manager.document.paragraphs[index].mutableAttributedString()
            if index < manager.paragraphCount - 1 { whole.append(NSAttributedString(string: "\n")) }
            let take = min(whole.length - skip, remaining)
            guard take > 0 else { break }
            result.append(whole.attributedSubstring(from: NSRange(location: skip, length: take)))
            remaining -= take
            skip = 0
            index += 1
        }
        return result
    }
}

/// Who applies `TextStorage`'s edits: the text view, for which each is an edit of paragraphs, as
/// typing is (the selection follows, attachments keep or lose their views by policy, code is
/// highlighted again).
protocol TextStorageEditor: AnyObject {
    /// Puts `text` in place of `range` (whole-text UTF-16 offsets).
    func replaceCharacters(in range: NSRange, with text: NSAttributedString?, plain: String) throws
    /// Changes the attributes over `range` with `change`.
    func changeAttributes(in range: NSRange, _ change: (inout [String: AttributeValue]) -> Void) throws
}

extension TextStorage {
    /// Replaces the characters in `range` with `string` (`NSTextStorage.replaceCharacters(in:with:)`):
    /// the new text takes the attributes of the character before it; a line break in it breaks
    /// the paragraph, the new one keeping the paragraph's kind (a line of code stays code). A
    /// range outside the text changes nothing.
    public func replaceCharacters(in range: NSRange, with string: String) {
        try? manager.storageEditor?.replaceCharacters(in: range, with: nil, plain: string)
    }

    /// Replaces the characters in `range` with `attributedString`, its attributes with them.
    public func replaceCharacters(in range: NSRange, with attributedString: NSAttributedString) {
        try? manager.storageEditor?.replaceCharacters(in: range, with: attributedString, plain: attributedString.string)
    }

    /// Makes `attributes` the only attributes over `range` (`setAttributes(_:range:)`; nil: none).
    public func setAttributes(_ attributes: [NSAttributedString.Key: Any]?, range: NSRange) {
        let values = Self.values(attributes ?? [:])
        try? manager.storageEditor?.changeAttributes(in: range) { $0 = values }
    }

    /// Sets each of `attributes` over `range`, keeping the others (`addAttributes(_:range:)`).
    public func addAttributes(_ attributes: [NSAttributedString.Key: Any], range: NSRange) {
        let values = Self.values(attributes)
        try? manager.storageEditor?.changeAttributes(in: range) { $0.merge(values) { $1 } }
    }

    /// Sets one attribute over `range` (`addAttribute(_:value:range:)`).
    public func addAttribute(_ name: NSAttributedString.Key, value: Any, range: NSRange) {
        addAttributes([name: value], range: range)
    }

    /// Removes one attribute over `range` (`removeAttribute(_:range:)`).
    public func removeAttribute(_ name: NSAttributedString.Key, range: NSRange) {
        try? manager.storageEditor?.changeAttributes(in: range) { $0[name.rawValue] = nil }
    }

    private static func values(_ attributes: [NSAttributedString.Key: Any]) -> [String: AttributeValue] {
        attributes.reduce(into: [:]) { result, pair in if let value = AttributeValue(pair.value) { result[pair.key.rawValue] = value } }
    }
}
