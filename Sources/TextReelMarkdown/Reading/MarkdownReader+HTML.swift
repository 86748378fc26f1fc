import Foundation
import TextReel

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

    /// Block elements GitHub's stylesheet gives a margin below (the rest, `<div>` among them, none);
    /// a `<summary>` ends its `<details>` when closed, and takes the details' margin.
    static let marginedElements: Set<String> = ["p", "dl", "dd", "figure", "summary"]

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
        /// How far it indents what it holds (a `<dd>`'s `padding: 0 16px`).
        var indent = 0.0
    }

    /// Elements whose start and end tags may lie in different HTML blocks, with Markdown between.
    static let spanningElements: Set<String> = ["details", "div", "center", "dd"]
    /// How far a description (`<dd>`) is indented, as GitHub's stylesheet pads it.
    static let descriptionIndent = 16.0

    /// A closed `<details>` is open around the blocks being read: they are not shown.
    var hidesBlocks: Bool { openElements.contains { !$0.shown } }
    /// The alignment of the innermost open element that sets one.
    var blockAlignment: TextAlignment? { openElements.last { $0.alignment != nil }?.alignment }
    /// Whether the innermost open element that sets a direction (`dir`) sets right to left.
    var blockRightToLeft: Bool { openElements.last { $0.rightToLeft != nil }?.rightToLeft ?? false }
    /// How far the elements open around Markdown blocks indent them (`<dd>`s).
    var blockIndent: Double { openElements.reduce(0) { $0 + $1.indent } }

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
        let indentBefore = blockIndent
        updateOpenElements(html)
        // The block's own text is inside the `<dd>`s open both before and after it: not one it
        // opens (its `<dt>` comes first) nor one it closes.
        block.indent = min(indentBefore, blockIndent)
        if hidden {
            // What follows the tag that closes a hidden `<details>` in this block shows.
            guard !hidesBlocks, let end = HTMLTags(html).filter({ $0.isEnd && $0.name == "details" }).last?.source.endIndex else { return }
            nodes = HTMLFragment(String(html[end...])).nodes
        }
        try walk(nodes, in: &block)
        try block.flush(into: &self)
    }

    /// Refuses HTML nested deeper than the nesting limit, as Markdown is: a browser shows every
    /// level, and what lies past the depth the walk reads would be lost.
    func checkNesting(of fragment: HTMLFragment, line: Int) throws {
        if fragment.depth > limits.nesting {
            throw TextReelError(file: fileName, line: line > 0 ? line : nil,
                                "HTML elements nested more than \(limits.nesting) deep; raise the limit with --max-nesting")
        }
        if fragment.isCut {
            throw TextReelError(file: fileName, line: line > 0 ? line : nil,
                                "HTML elements nested more than \(HTMLFragment.deepestRead) deep, past what TextReel reads")
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
    static func leadingSummary(_ nodes: [HTMLFragment.Node]) -> (index: Int, content: [HTMLFragment.Node])? {
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
        block.margined = 1   // the `<details>`' margin below, when closed
        block.inline.append(details.open ? "▾ " : "▸ ")
        try walk(summary ?? [.text("Details")], in: &block)
        try block.flush(into: &self)
    }

    /// Follows the start and end tags of `spanningElements` in `html`, in order: an end tag
    /// closes the latest such element the block opened, else one an earlier block left open (with
    /// those inside it, either way); what the block opens and leaves open is pushed.
    mutating func updateOpenElements(_ html: String) {
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
                                          rightToLeft: Self.rightToLeft(attributes), indent: tag.name == "dd" ? Self.descriptionIndent : 0))
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
        // A comment shows nothing; a declaration, a processing instruction or CDATA is a comment
        // to a browser up to its first `>`, and what follows that shows.
        if tag.hasPrefix("<!--") { return }
        if tag.hasPrefix("<?") || tag.hasPrefix("<!") { return inline.append(HTMLFragment(tag).nodes.map(\.text).joined()) }
        // A tag GitHub filters shows as written.
        if HTMLFragment.isFiltered(tag) { return inline.append(tag) }
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

    mutating func appendImage(_ attributes: [String: String], line: Int?, column: Int?, into inline: inout InlineBuilder) throws {
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
        /// The paragraphs are a `<dt>`'s: no space between them and their description.
        var term = false
        /// How many open elements give their text a margin below (`<p>`, `<dl>`, `<dd>`, `<figure>`
        /// in GitHub's stylesheet). Outside all of them, text (in a `<div>`, or bare) is an
        /// anonymous block to a browser: no space below it, the next block's top margin only.
        var margined = 0
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
            var isBody = false
            if case .body = kind { isBody = true }   // a heading keeps its margins
            let anonymous = isBody && margined == 0 && reader.listDepth == 0 && reader.quoteDepth == 0
            func noSpaceBelow(_ length: Int) -> [AttributeRun] {
                [MarkdownReader.paragraphStyle(alignment: .natural, length: length, spacedAfter: false)]
            }
            guard inline.text.contains(where: { !$0.isWhitespace }) else {
                // A `<br>` between blocks is a blank line on the page (a README's spacer), with no
                // space below it in a list item too.
                if breaks > 0, isBody {
                    try reader.add(reader.listKind(or: .body), text: "", line: line, extra: margined == 0 ? noSpaceBelow(0) : [])
                }
                return
            }
            let kind = isBody ? reader.listKind(or: .body) : kind
            if inline.attachments.count == 1, inline.text == TextAttachment.character, alignment == .natural, indent == 0 {
                let attachment = inline.attachments[0].at(offset: 0, isBlock: true)
                return try reader.add(.blockAttachment, text: TextAttachment.character, attachments: [attachment], line: line,
                                      extra: anonymous ? noSpaceBelow(1) : [])
            }
            // Explicit inside a `<dd>` too: the reader's indent there is the Markdown blocks'.
            let spacedAfter = !term && !anonymous
            let extra = alignment == .natural && indent == 0 && reader.blockIndent == 0 && spacedAfter ? []
                : [MarkdownReader.paragraphStyle(alignment: alignment, indent: indent, length: inline.text.utf8.count, spacedAfter: spacedAfter)]
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
}
