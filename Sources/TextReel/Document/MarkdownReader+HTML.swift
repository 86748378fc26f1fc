import Foundation

/// Raw HTML in Markdown, mapped onto paragraphs, runs, attachments and alignment as GitHub shows
/// it: its sanitiser's allow-list (`<p align>`, `<img width height>`, `<picture>`, `<details>`,
/// `<br>`, `<b>`…`<mark>`, `<a>`, `<h1>`–`<h6>`, `<hr>`, tables, lists, `<blockquote>`, `<pre>`)
/// draws; scripts, styles and forms are dropped with what they hold; comments and other tags are
/// hidden, their text kept, as browsers keep it.
extension MarkdownReader {
    /// Elements dropped with everything inside them (GitHub's sanitiser removes them).
    static let droppedElements: Set<String> = ["script", "style", "template", "head", "title", "meta", "link", "form", "input",
                                               "button", "select", "textarea", "option", "iframe", "object", "embed", "noscript", "svg", "math"]
    /// Elements that start and end a block.
    static let blockElements: Set<String> = ["p", "div", "center", "section", "article", "header", "footer", "main", "nav", "aside",
                                             "figure", "figcaption", "address", "summary", "dl", "dt", "dd"]

    /// Inline elements and the style each gives.
    static func inlineStyle(_ name: String) -> InlineStyle? {
        switch name {
        case "b", "strong": .strong
        case "i", "em", "cite", "var", "dfn": .emphasis
        case "code", "samp", "tt": .code
        case "kbd": [.code, .keyboard]
        case "del", "s", "strike": .strikethrough
        case "sub": .lowered
        case "sup": .raised
        case "ins", "u": .underline
        case "mark": .marked
        case "small": .small
        default: nil
        }
    }

    /// A block element an HTML block left open, which the Markdown blocks after it are inside:
    /// `shown` false for a closed `<details>` (its blocks hidden, as GitHub shows it before a
    /// click), `alignment` from a `<div align>`.
    struct OpenElement {
        let name: String
        var shown: Bool
        let alignment: TextAlignment?
        /// From `dir`: true for "rtl", false for "ltr", nil when not given.
        var rightToLeft: Bool? = nil
    }

    /// Elements whose start and end tags may lie in different HTML blocks, with Markdown between.
    static let spanningElements: Set<String> = ["details", "div", "center"]

    /// A closed `<details>` is open around the blocks being read: they are not shown.
    var hidesBlocks: Bool { openElements.contains { !$0.shown } }
    /// The alignment of the innermost open element that sets one.
    var blockAlignment: TextAlignment? { openElements.last { $0.alignment != nil }?.alignment }
    /// Whether the innermost open element that sets a direction (`dir`) sets right to left.
    var blockRightToLeft: Bool { openElements.last { $0.rightToLeft != nil }?.rightToLeft ?? false }

    /// `dir="rtl"` or `dir="ltr"`, if given.
    static func rightToLeft(_ attributes: [String: String]) -> Bool? {
        switch attributes["dir"]?.lowercased() {
        case "rtl"?: true
        case "ltr"?: false
        default: nil
        }
    }

    /// An HTML block (cmark's `html_block`): its blocks become paragraphs. Elements it leaves
    /// open (`<div align="center">`, `<details>`) hold the Markdown blocks after it, up to the
    /// block that closes them.
    /// `closing`: a table left open with the blocks that close it, or as it was left.
    mutating func readHTMLBlock(_ html: String, line: Int, closing: Bool = false) throws {
        openTable = nil
        if !closing, !hidesBlocks, case let depth = Self.tableDepth(html), depth > 0 {
            openTable = OpenTable(html: html, line: line, first: html, depth: depth)
            return
        }
        // Browsers read a stray `</br>` as `<br>`, and `&nbsp` without its `;` as a no-break
        // space; libxml2 drops the one and shows the other as written.
        let html = html.replacingOccurrences(of: "</br>", with: "<br>", options: .caseInsensitive)
            .replacingOccurrences(of: "&nbsp(?!;)", with: "&nbsp;", options: .regularExpression)
        let fragment = HTMLFragment(html)
        try checkNesting(of: fragment, line: line)
        var nodes = fragment.nodes
        if let pending = pendingDisclosure {
            let summary = Self.leadingSummary(nodes)
            if let summary { nodes.remove(at: summary.index) }
            try addDisclosure(pending, summary: summary?.content)
        }
        let hidden = hidesBlocks
        var block = HTMLBlock(line: line, alignment: blockAlignment ?? .natural)
        block.rightToLeft = blockRightToLeft
        updateOpenElements(html)
        if hidden {
            // What follows the tag that closes a hidden `<details>` in this block shows.
            guard !hidesBlocks, let end = HTMLTags(html).filter({ $0.isEnd && $0.name == "details" }).last?.source.endIndex else { return }
            nodes = HTMLFragment(String(html[end...])).nodes
        }
        try walk(nodes, in: &block)
        try block.flush(into: &self)
    }

    /// Refuses HTML nested deeper than the nesting limit, as Markdown is: a browser shows every
    /// level, and the parser drops what lies past its own depth without a word.
    private func checkNesting(of fragment: HTMLFragment, line: Int) throws {
        if fragment.depth > limits.nesting {
            throw TextReelError(file: fileName, line: line > 0 ? line : nil,
                                "HTML elements nested more than \(limits.nesting) deep; raise the limit with --max-nesting")
        }
        if fragment.depth >= HTMLFragment.deepestParsed {
            throw TextReelError(file: fileName, line: line > 0 ? line : nil,
                                "HTML elements nested \(HTMLFragment.deepestParsed) or more deep, past what the HTML parser reads")
        }
    }

    /// A cell's content as one paragraph's, since a row is one: its blocks (paragraphs, list
    /// items, headings, code) become lines, an item's after a bullet, a heading bold, a `<pre>`
    /// code; tabs, which separate cells, are spaces.
    static func inlineCell(_ nodes: [HTMLFragment.Node]) -> [HTMLFragment.Node] {
        var out: [HTMLFragment.Node] = []
        let bullet = "• "
        /// A block ended: what follows starts a line.
        var ended = false
        func startLine() {
            ended = false
            // White space before a line's end does not show.
            while case .text(let text)? = out.last, text.allSatisfy(\.isWhitespace) { out.removeLast() }
            if case .text(let marker)? = out.last, marker == bullet || marker.hasSuffix(". ") { return }    // an item's first paragraph
            if case .element("br", _, _)? = out.last { return }
            if out.contains(where: { !$0.text.allSatisfy(\.isWhitespace) || firstImage(in: [$0]) != nil }) {
                out.append(.element(name: "br", attributes: [:], children: []))
            }
        }
        func add(_ nodes: [HTMLFragment.Node], ordered: Bool = false) {
            var number = 0
            for node in nodes {
                guard case .element(let name, let attributes, let children) = node else {
                    if case .text(let text) = node {
                        if ended, !text.allSatisfy(\.isWhitespace) { startLine() }
                        out.append(.text(text.replacingOccurrences(of: "\t", with: " ")))
                    }
                    continue
                }
                if ended, !["br", "ul", "ol", "li"].contains(name) { startLine() }
                switch name {
                case "li":
                    startLine()
                    number += 1
                    out.append(.text(ordered ? "\(number). " : bullet))
                    add(children)
                    ended = true
                case "h1", "h2", "h3", "h4", "h5", "h6":
                    startLine()
                    out.append(.element(name: "strong", attributes: [:], children: inlineCell(children)))
                    ended = true
                case "pre":
                    startLine()
                    // Its lines stay lines in the cell (a line separator breaks the line there).
                    let text = node.text.replacingOccurrences(of: "\t", with: " ").trimmingCharacters(in: .newlines)
                    out.append(.element(name: "code", attributes: [:], children: [.text(text.replacingOccurrences(of: "\n", with: "\u{2028}"))]))
                    ended = true
                case "ul", "ol", "blockquote", "table", "tr", "hr":
                    add(children, ordered: name == "ol")
                    ended = true
                case _ where blockElements.contains(name):
                    startLine()
                    add(children)
                    ended = true
                default:
                    out.append(.element(name: name, attributes: attributes, children: inlineCell(children)))
                }
            }
        }
        add(nodes)
        return out
    }

    /// How many more `<table>` start tags than end tags `html` has.
    static func tableDepth(_ html: String) -> Int {
        guard html.range(of: "table", options: .caseInsensitive) != nil else { return 0 }
        return HTMLTags(html).reduce(0) { $1.name == "table" ? $0 + ($1.isEnd ? -1 : 1) : $0 }
    }

    /// An HTML table an HTML block left open: its HTML and that of the blocks after it so far,
    /// counted as it grows (each block is scanned once), and those blocks, read one by one if
    /// nothing closes the table.
    struct OpenTable {
        var html: String
        let line: Int
        /// The block that opened it.
        let first: String
        /// Tables still open.
        var depth: Int
        var blocks: [OpaquePointer] = []

        mutating func append(_ block: String, of node: OpaquePointer) {
            html += "\n" + block
            depth += MarkdownReader.tableDepth(block)
            blocks.append(node)
        }
    }

    /// The `<summary>` an HTML block starts with (after white space), and where it is.
    private static func leadingSummary(_ nodes: [HTMLFragment.Node]) -> (index: Int, content: [HTMLFragment.Node])? {
        for (index, node) in nodes.enumerated() {
            switch node {
            case .text(let text) where text.allSatisfy(\.isWhitespace): continue
            case .element("summary", _, let content): return (index, content)
            default: return nil
            }
        }
        return nil
    }

    /// A `<details>`'s line: its summary ("Details" without one, as browsers show it) behind a
    /// triangle pointing right when closed, down when open.
    mutating func addDisclosure(_ details: (open: Bool, line: Int), summary: [HTMLFragment.Node]?) throws {
        pendingDisclosure = nil
        var block = HTMLBlock(line: details.line, alignment: blockAlignment ?? .natural)
        block.inline.append(details.open ? "▾ " : "▸ ")
        try walk(summary ?? [.text("Details")], in: &block)
        try block.flush(into: &self)
    }

    /// Follows the start and end tags of `spanningElements` in `html`, in order: an end tag
    /// closes the latest such element the block opened, else one an earlier block left open (with
    /// those inside it, either way); what the block opens and leaves open is pushed.
    private mutating func updateOpenElements(_ html: String) {
        var opened: [OpenElement] = []
        // A `<summary>` the block leaves open takes what follows, up to `</details>`, into the
        // summary, which a browser shows even while its `<details>` is closed (translated
        // READMEs often leave it open: the rest of the page was hidden).
        var summaryOpen = false
        for tag in HTMLTags(html) where tag.name == "summary" || Self.spanningElements.contains(tag.name) {
            if tag.name == "summary" {
                summaryOpen = !tag.isEnd
            } else if !tag.isEnd {
                let attributes = tag.attributes
                opened.append(OpenElement(name: tag.name, shown: tag.name != "details" || attributes["open"] != nil,
                                          alignment: tag.name == "center" ? .center : Self.alignment(attributes),
                                          rightToLeft: Self.rightToLeft(attributes)))
            } else if let k = opened.lastIndex(where: { $0.name == tag.name }) {
                opened.removeLast(opened.count - k)
            } else if let k = openElements.lastIndex(where: { $0.name == tag.name }) {
                openElements.removeLast(openElements.count - k)
            }
        }
        if summaryOpen {
            if let k = opened.lastIndex(where: { $0.name == "details" }) { opened[k].shown = true }
            else if let k = openElements.lastIndex(where: { $0.name == "details" }) { openElements[k].shown = true }
        }
        openElements += opened
    }

    /// The alignment an element's `align` sets, if any.
    static func alignment(_ attributes: [String: String]) -> TextAlignment? {
        switch attributes["align"]?.lowercased() {
        case "center"?: .center
        case "right"?: .right
        case "left"?: .left
        case "justify"?: .justified
        default: nil
        }
    }

    /// A tag inside a Markdown paragraph (cmark's `html_inline`): a start or end tag, `<br>`,
    /// `<img>`, or a comment.
    mutating func readInlineTag(_ tag: String, line: Int?, column: Int?, into inline: inout InlineBuilder) throws {
        if tag.hasPrefix("<!--") || tag.hasPrefix("<?") || tag.hasPrefix("<!") { return }
        if tag.hasPrefix("</") {
            let name = tag.dropFirst(2).prefix { $0.isLetter || $0.isNumber }.lowercased()
            // Browsers read a stray `</br>` as `<br>`.
            if name == "br" { return inline.append("\u{2028}") }
            inline.close(tag: name)
            return
        }
        guard case .element(let name, let attributes, _)? = HTMLFragment(tag).nodes.first(where: { if case .element = $0 { true } else { false } }) else { return }
        switch name {
        case "br": inline.append("\u{2028}")
        case "img": try appendImage(attributes, line: line, column: column, into: &inline)
        case "a" where attributes["href"] != nil: inline.open(tag: name, .link, link: attributes["href"])
        default:
            if let style = Self.inlineStyle(name) { inline.open(tag: name, style) }
        }
    }

    private mutating func appendImage(_ attributes: [String: String], line: Int?, column: Int?, into inline: inout InlineBuilder) throws {
        guard let src = attributes["src"], !src.isEmpty else { return }
        func length(_ key: String) -> Double? {
            // "200" and "200px" are points; a percentage has no size without the page's width.
            guard let text = attributes[key]?.trimmingCharacters(in: .whitespaces), !text.hasSuffix("%"),
                  let value = Double(text.hasSuffix("px") ? String(text.dropLast(2)) : text), value.isFinite, value > 0 else { return nil }
            return value
        }
        let before = inline.attachments.count
        try appendImage(url: src, alt: attributes["alt"] ?? "", declared: (length("width"), length("height")), line: line, column: column, into: &inline)
        // `width="50%"`: half the column GitHub's page sets it in (at most all of it).
        if inline.attachments.count > before, let text = attributes["width"]?.trimmingCharacters(in: .whitespaces), text.hasSuffix("%"),
           let percent = Double(text.dropLast()), percent.isFinite, percent > 0 {
            inline.widenLastAttachment(to: min(percent, 100) / 100)
        }
    }

    /// What a walk through an HTML block has open: the paragraph being filled and how its
    /// blocks are set.
    struct HTMLBlock {
        var inline = InlineBuilder()
        var kind: ParagraphKind = .body
        var alignment: TextAlignment
        /// Set right to left (`dir="rtl"`).
        var rightToLeft = false
        /// How far the paragraphs are indented (`<dd>`).
        var indent = 0.0
        var preformatted = false
        /// The last text appended ended in white space (runs of it collapse to one space).
        var spaced = true
        /// How many `<br>` the paragraph being filled holds.
        var breaks = 0
        let line: Int

        init(line: Int, alignment: TextAlignment = .natural) {
            self.line = line
            self.alignment = alignment
        }

        /// Ends the paragraph being filled (nothing when it holds only white space).
        mutating func flush(into reader: inout MarkdownReader) throws {
            defer { inline = inline.continued(); spaced = true; kind = .body; breaks = 0; reader.htmlRightToLeft = false }
            reader.htmlRightToLeft = rightToLeft
            guard inline.text.contains(where: { !$0.isWhitespace }) else {
                // A `<br>` between blocks is a blank line on the page (a README's spacer).
                if breaks > 0, case .body = kind { try reader.add(reader.listKind(or: .body), text: "", line: line) }
                return
            }
            var kind = kind
            if case .body = kind { kind = reader.listKind(or: .body) }
            if inline.attachments.count == 1, inline.text == TextAttachment.character, alignment == .natural, indent == 0 {
                let attachment = inline.attachments[0].at(offset: 0, isBlock: true)
                return try reader.add(.blockAttachment, text: TextAttachment.character, attachments: [attachment], line: line)
            }
            let extra = alignment == .natural && indent == 0 ? [] : [MarkdownReader.paragraphStyle(alignment: alignment, indent: indent, length: inline.text.utf8.count)]
            try reader.add(kind, inline: inline, line: line, extra: extra)
        }

        /// Text as a browser sets it: runs of white space are one space, none at a line's start.
        mutating func append(text: String) {
            if preformatted { inline.append(text); return }
            var out = ""
            for character in text {
                // HTML's white space only: a no-break space (`&nbsp;`) is a character that stays.
                if character == " " || character == "\n" || character == "\t" || character == "\r\n" || character == "\r" || character == "\u{0C}" {
                    if !spaced { out.append(" ") }
                    spaced = true
                } else {
                    out.append(character)
                    spaced = false
                }
            }
            inline.append(out)
        }
    }

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

    private mutating func walk(_ nodes: [HTMLFragment.Node], in block: inout HTMLBlock) throws {
        for node in nodes { try walk(node, in: &block) }
    }

    private mutating func walk(_ node: HTMLFragment.Node, in block: inout HTMLBlock) throws {
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
            // `<img>` in the others, as GitHub shows a README's logo. libxml2's HTML parser does
            // not know `<source>` is empty, so an `<img>` after one lies inside it: the first found.
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
            try inBlock(attributes, &block) { reader, block in
                // GitHub's terms are bold italic; their descriptions indented.
                if name == "dt" { block.inline.push([.strong, .emphasis]) }
                if name == "dd" { block.indent += 16 }
                try reader.walk(children, in: &block)
                if name == "dt" { block.inline.pop() }
                try block.flush(into: &reader)
                if name == "dd" { block.indent -= 16 }
            }
        default:
            // Unknown and structural tags (`<span>`, `<a id>`, `<html>`): their text shows.
            try walk(children, in: &block)
        }
    }

    /// A block element: its `align` sets its paragraphs. (`dir="rtl"` needs nothing: Pango
    /// sets each paragraph in the direction of its first strong character, and right-to-left
    /// text then starts at the right.)
    private mutating func inBlock(_ attributes: [String: String], _ block: inout HTMLBlock,
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
    private mutating func readHTMLTable(_ table: HTMLFragment.Node, line: Int) throws {
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
