import CHTMLTree
import Foundation
import TextReel

/// Raw HTML in a document (`<p align="center"><img …></p>`, `<details>`, `<kbd>`), parsed by
/// libxml2's HTML parser into plain values. libxml2 because it is maintained, recovers from broken
/// markup as browsers do (unclosed and misnested tags, bare `&`, unquoted attributes), and is
/// already on every machine TextReel runs on (librsvg reads SVG with it); Gumbo, the other
/// tolerant parser in Debian, is no longer maintained upstream. Comments are dropped: no browser
/// shows them.
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
    /// The deepest libxml2 builds a tree (its parser's limit of 256 levels, less the `<html>` and
    /// `<body>` it adds): what lies deeper is dropped without a word, so a fragment this deep
    /// may have lost some.
    static let deepestParsed = 254

    /// Why raw HTML cannot be parsed here (libxml2 cannot be loaded), or nil.
    static var libraryProblem: String? { textreel_html_problem().map { String(cString: $0) } }

    init(_ html: String) {
        final class Builder {
            var stack: [(name: String, attributes: [String: String], children: [Node])] = [("", [:], [])]
            var depth = 0
        }
        let builder = Builder()
        var html = html
        _ = html.withUTF8 { bytes in
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
    }
}
