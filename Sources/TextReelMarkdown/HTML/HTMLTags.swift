import Foundation
import TextReel

/// The start and end tags of raw HTML, in order, as written: what an HTML block opens and closes
/// (a parsed tree closes what is left open at the block's end, so it cannot tell). Comments and
/// declarations are skipped; a `>` inside a quoted attribute value does not end a tag.
struct HTMLTags: Sequence {
    struct Tag {
        /// The element's name, lowercased.
        let name: String
        let isEnd: Bool
        /// The tag as written (`<div align="center">`).
        let source: Substring

        /// A start tag's attributes, by lowercased name.
        var attributes: [String: String] {
            guard !isEnd, case .element(_, let attributes, _)? = HTMLFragment(String(source)).nodes.first else { return [:] }
            return attributes
        }
    }

    let html: String

    init(_ html: String) { self.html = html }

    func makeIterator() -> AnyIterator<Tag> {
        let utf8 = html.utf8
        var i = utf8.startIndex
        return AnyIterator {
            while let open = utf8[i...].firstIndex(of: UInt8(ascii: "<")) {
                var j = utf8.index(after: open)
                guard j < utf8.endIndex else { return nil }
                if utf8[j] == UInt8(ascii: "!") {
                    // A comment ends at "-->", a declaration at ">".
                    let rest = html[j...]
                    let end = rest.hasPrefix("!--") ? rest.range(of: "-->")?.upperBound : rest.firstIndex(of: ">").map { html.index(after: $0) }
                    i = end ?? utf8.endIndex
                    continue
                }
                let isEnd = utf8[j] == UInt8(ascii: "/")
                if isEnd { j = utf8.index(after: j) }
                let nameEnd = utf8[j...].firstIndex { !(($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))) } ?? utf8.endIndex
                guard nameEnd > j, (utf8[j] | 0x20) >= UInt8(ascii: "a"), (utf8[j] | 0x20) <= UInt8(ascii: "z") else {
                    i = utf8.index(after: open)
                    continue
                }
                // The tag ends at the first ">" outside quotes.
                var quote: UInt8?
                var k = nameEnd
                while k < utf8.endIndex {
                    let byte = utf8[k]
                    if let q = quote { if byte == q { quote = nil } } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte } else if byte == UInt8(ascii: ">") { break }
                    k = utf8.index(after: k)
                }
                i = k < utf8.endIndex ? utf8.index(after: k) : k
                return Tag(name: String(html[j..<nameEnd]).lowercased(), isEnd: isEnd, source: html[open..<i])
            }
            return nil
        }
    }
}
