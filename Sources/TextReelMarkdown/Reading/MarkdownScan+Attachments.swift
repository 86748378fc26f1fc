import Foundation
import TextReel

/// The index's look at attachments: an attachment whose URL can be trusted byte by byte
/// counts its id without a parse.
extension MarkdownScan {
    /// `![alt](scheme:id?key=value…)` naming its id, for a scheme that reads no file, with only the
    /// keys its provider reads and values that parse: returns the index after it, or nil when only
    /// a parse can tell what it is.
    mutating func attachment(from start: Int, _ end: Int, _ nonASCII: inout Int32) -> Int? {
        var i = start + 2
        lineDelimiters += 1                                               // the image is a nesting level
        while i < end, self[i] != 0x5D {
            switch self[i] {
            case 0x5B, 0x5C, 0x60, 0x0D: return nil
            case 0x2A, 0x5F, 0x7E: lineDelimiters += 1
            case 0x00: invalidUTF8 = true
            case 0x80...: nonASCII = 1
            default: break
            }
            i += 1
        }
        guard i + 1 < end, self[i + 1] == 0x28 else { return i < end ? i + 1 : nil }   // "![x]" alone is text
        let urlStart = i + 2
        var close = urlStart
        while close < end, self[close] != 0x29 { close += 1 }
        guard close < end, let id = trusted.id(in: UnsafeRawBufferPointer(rebasing: bytes[urlStart..<close])) else { return nil }
        current.attachmentIDs.append(StableHash.of(UnsafeRawBufferPointer(rebasing: bytes[(urlStart + id.lowerBound)..<(urlStart + id.upperBound)])))
        return close + 1
    }
}
