import CHTMLTree
import Foundation
import TextReel

/// Raw HTML in a document (`<p align="center"><img …></p>`, `<details>`, `<kbd>`), parsed as a
/// browser parses it into plain values: Gumbo (Debian's libgumbo) implements the HTML5 tree
/// builder, so unclosed `<p>`, `<li>` and `<td>`, misnested `<b><i></b></i>`, text written
/// before a table's rows, `<![CDATA[…]]>` and `<?php … ?>` come out as every browser shows
/// them. (libxml2's HTML parser, used before, predates those rules: it lost the text before a
/// table's rows and drew CDATA's brackets.) Comments are dropped: no browser shows them.
struct HTMLFragment {
    /// An element or a run of text.
    indirect enum Node: Equatable {
        case text(String)
        case element(name: String, attributes: [String: String], children: [Node])

        /// The text inside, as a browser's `textContent`.
        var text: String {
            switch self {
            case .text(let text): text
            case .element(_, _, let children): children.map(\.text).joined()
            }
        }
    }

    /// The nodes of the fragment, in order.
    let nodes: [Node]
    /// How deep its elements nest (`<div><p>x</p></div>`: 2).
    let depth: Int
    /// Whether elements nested deeper than `deepestRead` were left out.
    let isCut: Bool
    /// The deepest the walk reads (the reader refuses HTML deeper than its nesting limit first).
    static let deepestRead = Int(TEXTREEL_HTML_DEEPEST)

    /// The tags GitHub filters (the GFM spec's disallowed raw HTML): their `<` is text, so they
    /// show as written instead of changing how the rest of the page parses.
    static let filteredTags = try! NSRegularExpression(
        pattern: "<(?=/?(?:title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext)(?:[\\s/>]|$))", options: [.caseInsensitive])

    /// Whether `tag` (`<script>`, `</TITLE>`) is one GitHub filters.
    static func isFiltered(_ tag: String) -> Bool {
        filteredTags.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag))?.range.location == 0
    }

    init(_ html: String) {
        final class Builder {
            var stack: [(name: String, attributes: [String: String], children: [Node])] = [("", [:], [])]
            var depth = 0
        }
        let builder = Builder()
        var html = Self.filteredTags.stringByReplacingMatches(in: html, range: NSRange(html.startIndex..., in: html), withTemplate: "&lt;")
        let walked = html.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                textreel_html_walk(chars.baseAddress, chars.count, Unmanaged.passUnretained(builder).toOpaque()) { context, event, name, value in
                    let builder = Unmanaged<Builder>.fromOpaque(context!).takeUnretainedValue()
                    switch UInt32(event) {
                    case TEXTREEL_HTML_ENTER.rawValue:
                        builder.stack.append((String(cString: name!).lowercased(), [:], []))
                        builder.depth = max(builder.depth, builder.stack.count - 1)
                    case TEXTREEL_HTML_ATTRIBUTE.rawValue:
                        builder.stack[builder.stack.count - 1].attributes[String(cString: name!).lowercased()] = String(cString: value!)
                    case TEXTREEL_HTML_TEXT.rawValue:
                        builder.stack[builder.stack.count - 1].children.append(.text(String(cString: value!)))
                    default:
                        let done = builder.stack.removeLast()
                        builder.stack[builder.stack.count - 1].children.append(.element(name: done.name, attributes: done.attributes, children: done.children))
                    }
                }
            }
        }
        nodes = builder.stack[0].children
        depth = builder.depth
        isCut = walked == 1
    }
}
