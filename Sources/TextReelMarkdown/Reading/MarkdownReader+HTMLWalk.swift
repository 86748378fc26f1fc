import Foundation
import TextReel

/// An HTML block's tree walked into paragraphs as a browser sets them: blocks, lists, `<pre>`,
/// `<dd>`, images and `<picture>`, and HTML tables with their spans.
extension MarkdownReader {
    /// The first `<img>` among `nodes` and their descendants, in document order.
    static func firstImage(in nodes: [HTMLFragment.Node]) -> HTMLFragment.Node? {
        for node in nodes {
            guard case .element(let name, _, let children) = node else { continue }
            if name == "img" { return node }
            if let found = firstImage(in: children) { return found }
        }
        return nil
    }

    /// The `<source>` elements in `nodes`, at any depth.
    static func sources(in nodes: [HTMLFragment.Node]) -> [HTMLFragment.Node] {
        nodes.flatMap { node -> [HTMLFragment.Node] in
            guard case .element(let name, _, let children) = node else { return [] }
            return (name == "source" ? [node] : []) + sources(in: children)
        }
    }

    mutating func walk(_ nodes: [HTMLFragment.Node], in block: inout HTMLBlock) throws {
        for node in nodes { try walk(node, in: &block) }
    }

    mutating func walk(_ node: HTMLFragment.Node, in block: inout HTMLBlock) throws {
        guard case .element(let name, let attributes, let children) = node else {
            if case .text(let text) = node { block.append(text: text) }
            return
        }
        if Self.droppedElements.contains(name) { return }
        if let style = Self.inlineStyle(name) {
            block.inline.push(style)
            try walk(children, in: &block)
            block.inline.pop()
            return
        }
        switch name {
        case "br":
            block.inline.append("\u{2028}")
            block.spaced = true
            block.breaks += 1
        case "img":
            let float = attributes["align"]?.lowercased()
            try appendImage(attributes, line: block.line, column: nil, into: &block.inline)
            block.spaced = false
            // A floated image that starts its paragraph (a README's logo, its text after it): a
            // line of its own at its side, above the text GitHub sets beside it.
            if float == "right" || float == "left", block.inline.text == TextAttachment.character {
                let outer = block.alignment
                if float == "right" { block.alignment = .right }
                try block.flush(into: &self)
                block.alignment = outer
            }
        case "picture":
            // The `<img>` shows where no `<source>` is chosen; a source for a colour scheme
            // (`media="(prefers-color-scheme: dark)"`) shows in the looks of that scheme, the
            // `<img>` in the others, as GitHub shows a README's logo (the first `<img>` found,
            // wherever the parser put it).
            guard let image = Self.firstImage(in: children) else { break }
            let schemes = Self.sources(in: children).compactMap { source -> (dark: Bool, url: String)? in
                guard case .element(_, let attributes, _) = source, let media = attributes["media"]?.lowercased(),
                      let url = attributes["srcset"]?.split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init) else { return nil }
                if media.contains("prefers-color-scheme: dark") || media.contains("prefers-color-scheme:dark") { return (true, url) }
                if media.contains("prefers-color-scheme: light") || media.contains("prefers-color-scheme:light") { return (false, url) }
                return nil
            }
            guard let scheme = schemes.first, case .element(_, var imageAttributes, _) = image else {
                try walk(image, in: &block)
                break
            }
            var sourced = imageAttributes
            sourced["src"] = scheme.url
            try walk(.element(name: "img", attributes: sourced, children: []), in: &block)
            block.inline.showLastAttachment(inDarkLook: scheme.dark)
            imageAttributes["src"] = imageAttributes["src"] ?? ""
            try walk(.element(name: "img", attributes: imageAttributes, children: []), in: &block)
            block.inline.showLastAttachment(inDarkLook: !scheme.dark)
        case "a":
            if let href = attributes["href"] { block.inline.push(.link, link: href) }
            try walk(children, in: &block)
            if attributes["href"] != nil { block.inline.pop() }
        case "hr":
            try block.flush(into: &self)
            try add(.thematicBreak, text: "", line: block.line)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            try block.flush(into: &self)
            try inBlock(attributes, &block) { reader, block in
                block.kind = .heading(level: Int(String(name.dropFirst()))!)
                try reader.walk(children, in: &block)
            }
        case "pre":
            try block.flush(into: &self)
            var text = node.text
            // As in browsers, a line break right after `<pre>` is not part of the text.
            if text.hasPrefix("\r\n") { text.removeFirst() } else if text.hasPrefix("\n") { text.removeFirst() }
            while text.hasSuffix("\n") { text.removeLast() }
            // In bands, as a fenced block is (one paragraph of 100,000 lines took 44 s to lay out).
            try addCode(text, language: attributes["lang"], line: block.line, firstCodeLine: block.line)
        case "blockquote":
            try block.flush(into: &self)
            let first = paragraphs.count
            if quoteDepth == 0 { listsOutsideQuotes = listDepth }
            quoteDepth += 1
            try walk(children, in: &block)
            try block.flush(into: &self)
            quoteDepth -= 1
            endBlock(from: first) { $0.quotes += 1 }
        case "ul", "ol":
            try block.flush(into: &self)
            let first = paragraphs.count
            listDepth += 1
            var number = Int(attributes["start"] ?? "") ?? 1
            for item in children {
                guard case .element("li", _, let content) = item else { continue }
                pendingMarker = ListMarker.text(ordered: name == "ol", number: number, depth: listDepth)
                try walk(content, in: &block)
                try block.flush(into: &self)
                pendingMarker = nil
                number += 1
            }
            listDepth -= 1
            if listDepth == 0 { endBlock(from: first) { $0.list = true } }
        case "details":
            // Closed, as GitHub shows it before a click: the summary behind a disclosure
            // triangle, the rest hidden; `open`: the rest shown below it.
            try block.flush(into: &self)
            let details = (open: attributes["open"] != nil, line: block.line)
            let summary = children.firstIndex { if case .element("summary", _, _) = $0 { true } else { false } }
            if summary == nil, children.allSatisfy({ if case .text(let t) = $0 { t.allSatisfy(\.isWhitespace) } else { false } }) {
                // The block ends before the summary: the next block may start with it.
                pendingDisclosure = details
                return
            }
            if let summary, case .element(_, _, let content) = children[summary] {
                try addDisclosure(details, summary: content)
            } else {
                try addDisclosure(details, summary: nil)
            }
            if details.open {
                try walk(children.enumerated().filter { $0.offset != summary }.map(\.element), in: &block)
                try block.flush(into: &self)
            }
        case "table":
            try block.flush(into: &self)
            try readHTMLTable(node, line: block.line)
        case _ where Self.blockElements.contains(name):
            try block.flush(into: &self)
            let margined = Self.marginedElements.contains(name)
            if margined { block.margined += 1 }
            defer { if margined { block.margined -= 1 } }
            try inBlock(attributes, &block) { reader, block in
                // GitHub's terms are bold italic; their descriptions indented.
                // A term sits on its description (GitHub's stylesheet spaces a `<dt>` above only).
                if name == "dt" { block.inline.push([.strong, .emphasis]); block.term = true }
                if name == "dd" { block.indent += Self.descriptionIndent }
                try reader.walk(children, in: &block)
                if name == "dt" { block.inline.pop() }
                try block.flush(into: &reader)
                block.term = false
                if name == "dd" { block.indent -= Self.descriptionIndent }
            }
        default:
            // Unknown and structural tags (`<span>`, `<a id>`, `<html>`): their text shows.
            try walk(children, in: &block)
        }
    }

    /// A block element: its `align` sets its paragraphs. (`dir="rtl"` needs nothing: Pango
    /// sets each paragraph in the direction of its first strong character, and right-to-left
    /// text then starts at the right.)
    mutating func inBlock(_ attributes: [String: String], _ block: inout HTMLBlock,
                                  _ body: (inout MarkdownReader, inout HTMLBlock) throws -> Void) throws {
        let outer = (block.alignment, block.rightToLeft)
        if let alignment = Self.alignment(attributes) { block.alignment = alignment }
        if let rightToLeft = Self.rightToLeft(attributes) { block.rightToLeft = rightToLeft }
        try body(&self, &block)
        try block.flush(into: &self)
        (block.alignment, block.rightToLeft) = outer
    }

    /// An HTML `<table>`: its rows (in `<thead>`, `<tbody>`, `<tfoot>` or bare) as a table's
    /// rows; `<th>` cells bold; a column's alignment from its first row's `align`. The first row
    /// is a header only when its cells are all `<th>` (or it is in `<thead>`).
    mutating func readHTMLTable(_ table: HTMLFragment.Node, line: Int) throws {
        func isCell(_ node: HTMLFragment.Node) -> Bool {
            if case .element(let name, _, _) = node { name == "td" || name == "th" } else { false }
        }
        func rows(_ node: HTMLFragment.Node, head: Bool) -> [(cells: [HTMLFragment.Node], head: Bool)] {
            guard case .element(let name, _, let children) = node else { return [] }
            if name == "tr" { return [(children.filter(isCell), head)] }
            // Cells outside any row are a row of their own, as browsers imply one.
            var found: [(cells: [HTMLFragment.Node], head: Bool)] = [], stray: [HTMLFragment.Node] = []
            for child in children {
                if isCell(child) { stray.append(child); continue }
                if !stray.isEmpty { found.append((stray, head)); stray = [] }
                found += rows(child, head: head || name == "thead")
            }
            if !stray.isEmpty { found.append((stray, head)) }
            return found
        }
        let found = rows(table, head: false)
        guard !found.isEmpty else { return }
        let hasHeader = found[0].head || found[0].cells.allSatisfy { if case .element("th", _, _) = $0 { true } else { false } }
        var built: [(inline: InlineBuilder, line: Int)] = []
        let grid = Self.spannedGrid(found.map(\.cells))
        for row in grid {
            var block = HTMLBlock(line: line)
            for (k, cell) in row.enumerated() {
                if k > 0 { block.inline.append("\t") }
                guard case .element(let name, _, let children)? = cell else { continue }
                block.spaced = true
                if name == "th" { block.inline.push(.strong) }
                try walk(Self.inlineCell(children), in: &block)
                if name == "th" { block.inline.pop() }
            }
            built.append((block.inline, line))
        }
        // As many columns as the widest row: a later row may hold more cells than the first.
        let width = grid.map(\.count).max() ?? 0
        let alignments: [TableAlignment] = (0..<width).map { column in
            guard let first = grid.first, column < first.count, case .element(_, let attributes, _)? = first[column] else { return .natural }
            switch Self.alignment(attributes) {
            case .center?: return .center
            case .right?: return .right
            case .left?: return .left
            default: return .natural
            }
        }
        try addTable(built, alignments: alignments, hasHeader: hasHeader)
    }

    /// The rows' cells on the table's grid: a cell spanning columns (`colspan`) or rows
    /// (`rowspan`, 0: to the table's end) is followed by empty places (nil) where it spans, so
    /// every cell keeps its column (its text in the first place, not drawn across the others).
    static func spannedGrid(_ rows: [[HTMLFragment.Node]]) -> [[HTMLFragment.Node?]] {
        var spanning: [Int: Int] = [:]    // column → rows it is still taken for
        return rows.enumerated().map { index, cells in
            var row: [HTMLFragment.Node?] = [], rest = cells[...]
            func take(_ column: Int) -> Bool {
                guard let left = spanning[column] else { return false }
                spanning[column] = left > 1 ? left - 1 : nil
                row.append(nil)
                return true
            }
            while true {
                if take(row.count) { continue }
                guard let cell = rest.popFirst() else {
                    // Places to the right still taken by cells from rows above.
                    guard let next = spanning.keys.filter({ $0 > row.count }).min() else { break }
                    row += Array(repeating: nil, count: next - row.count)
                    continue
                }
                guard case .element(_, let attributes, _) = cell else { continue }
                let columns = min(max(Int(attributes["colspan"] ?? "") ?? 1, 1), 64)
                let down = Int(attributes["rowspan"] ?? "").map { $0 == 0 ? rows.count - index : min(max($0, 1), rows.count - index) } ?? 1
                for k in 0..<columns {
                    if down > 1 { spanning[row.count] = down - 1 }
                    row.append(k == 0 ? cell : nil)
                }
            }
            return row
        }
    }
}
