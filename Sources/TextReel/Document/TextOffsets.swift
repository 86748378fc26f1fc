/// The two units of a text's offsets: UTF-16 code units, which the public API counts (as TextKit
/// does: `TextLocation`, `NSRange`s, line fragments), and UTF-8 bytes, which Pango, the runs and
/// attachments count inside. Conversions round an offset inside a Unicode scalar (a surrogate
/// pair, a multi-byte sequence) down to the scalar's start.
extension String {
    /// UTF-16 offset `offset` in UTF-8 bytes, clamped to the text.
    func utf8Offset(ofUTF16 offset: Int) -> Int {
        guard offset > 0 else { return 0 }
        guard var index = utf16.index(utf16.startIndex, offsetBy: offset, limitedBy: utf16.endIndex) else { return utf8.count }
        if index.samePosition(in: unicodeScalars) == nil { index = utf16.index(before: index) }
        return utf8.distance(from: startIndex, to: index)
    }

    /// UTF-8 offset `offset` in UTF-16 code units, clamped to the text.
    func utf16Offset(ofUTF8 offset: Int) -> Int {
        guard offset > 0 else { return 0 }
        guard var index = utf8.index(utf8.startIndex, offsetBy: offset, limitedBy: utf8.endIndex) else { return utf16.count }
        while index.samePosition(in: unicodeScalars) == nil { index = utf8.index(before: index) }
        return utf16.distance(from: startIndex, to: index)
    }
}

extension TextParagraph {
    /// The text's length in UTF-16 code units: the offset of a location at its end.
    var utf16Count: Int { text.utf16.count }

    /// The location `utf8` bytes into the paragraph.
    func location(utf8 offset: Int) -> TextLocation { TextLocation(paragraph: id, offset: text.utf16Offset(ofUTF8: offset)) }

    /// A location's offset into this paragraph, in UTF-8 bytes.
    func utf8Offset(of location: TextLocation) -> Int { text.utf8Offset(ofUTF16: location.offset) }
}
