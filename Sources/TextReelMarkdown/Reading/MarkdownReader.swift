import CMark
import Foundation
import TextReel

/// Reads Markdown with cmark-gfm (tables, strikethrough, task lists, autolinks) into paragraphs.
/// Every block becomes one `TextParagraph`; images become attachments.
struct MarkdownReader {
    let fileName: String
    let baseURL: URL?
    var paragraphs: [TextParagraph] = []
    var warnings: [String] = []
    var ordinals: [String: Int] = [:]
    /// Where each attachment id was first used, to warn about repeats.
    var attachmentIDs: [String: String] = [:]
    /// Every attachment id read so far, also of images that end up in no paragraph.
    var attachmentIDsSeen: Dictionary<String, String>.Keys { attachmentIDs.keys }
    var quoteDepth = 0
    var listDepth = 0
    /// The marker for the next paragraph of the current list item; consumed by its first block.
    var pendingMarker: String?
    /// How many lists hold the outermost quote being read (`- > quote`): its bars stand after
    /// their indents.
    var listsOutsideQuotes = 0
    /// The alerts the walk is inside, with the quote level of each.
    var alerts: [(alert: Alert, level: Int)] = []
    /// Block elements that HTML blocks opened and left open (`<div align="center">`, `<details>`),
    /// innermost last: the Markdown blocks after one are inside it until an HTML block closes it
    /// (see `readHTMLBlock`).
    var openElements: [OpenElement] = []
    /// Each open list's direction, from its first item's text (nil until that is read).
    var listDirections: [Bool?] = []
    /// A `<details>` whose HTML block ended before its `<summary>`: drawn with the next block,
    /// which gives the summary when it starts with one (READMEs put a blank line between them).
    var pendingDisclosure: (open: Bool, line: Int)?
    /// An HTML table left open by its block, and the blocks after it as HTML, until one closes
    /// it: a README's `<td>` holding Markdown between blank lines is one table, as on GitHub.
    var openTable: OpenTable?
    /// The HTML block being flushed sets its paragraphs right to left (`dir="rtl"`).
    var htmlRightToLeft = false
    /// The ids of display formulas (`$$…$$`): one alone in its paragraph is centred.
    var displayFormulas: Set<String> = []
    /// The blocks being read are a footnote's.
    var inFootnote = false
    /// Footnote definitions read so far: cmark-gfm puts them at the end, in order of first reference.
    var footnotes = 0

    let limits: ReadingLimits
    /// How deep the walk is in quotes, list items and inline styles: what the nesting limit counts.
    var depth = 0

    let kinds: AttachmentKinds

    init(fileName: String, baseURL: URL?, limits: ReadingLimits = .standard, kinds: AttachmentKinds) {
        self.fileName = fileName
        self.baseURL = baseURL
        self.limits = limits
        self.kinds = kinds
    }

    /// Refuses documents nested deeper than the limit (the walk is recursive). Only nodes that
    /// nest count (`counts`): a quote, a list item, an inline style; so 64 quotes are allowed
    /// under a limit of 64, and the 65th is refused at its own column.
    mutating func descend(_ node: OpaquePointer, counts: Bool) throws {
        guard counts else { return }
        depth += 1
        if depth > limits.nesting {
            let (line, column) = position(of: node)
            throw TextReelError(file: fileName, line: line, column: column,
                                "quotes, lists or styles nested more than \(limits.nesting) deep; raise the limit with --max-nesting")
        }
    }

    /// Added to cmark's line numbers: where the section being parsed starts in the file.
    var lineOffset = 0
    /// The id of the section's first paragraph: its number in the file.
    var firstID = 0

    /// Parses one section of a file (valid UTF-8, see `validateUTF8`) into its paragraphs,
    /// numbered from `firstID`, with lines counted from `firstLine`. Ordinals and attachment ids
    /// carry over from the sections this reader parsed before.
    mutating func read(section bytes: UnsafeRawBufferPointer, firstLine: Int, firstID: Int) throws -> [TextParagraph] {
        lineOffset = firstLine - 1
        self.firstID = firstID
        paragraphs = []
        // Front matter at the very top of the file is a table of its keys and values.
        if firstLine == 1, let front = FrontMatter(bytes) {
            var keys = InlineBuilder(), values = InlineBuilder()
            keys.push(.strong)
            for (k, field) in front.fields.enumerated() {
                if k > 0 { keys.append("\t"); values.append("\t") }
                keys.append(field.key.replacingOccurrences(of: "\t", with: " "))
                values.append(field.value.replacingOccurrences(of: "\t", with: " "))
            }
            keys.pop()
            try addTable([(keys, 1), (values, 2)], alignments: Array(repeating: .natural, count: front.fields.count))
            lineOffset += front.lineCount
            try parse(UnsafeRawBufferPointer(rebasing: bytes[front.byteCount...]))
            return paragraphs
        }
        try parse(bytes)
        return paragraphs
    }

    /// The section being read, for the columns of warnings (kept only while it is read).
    var sectionText: String?

    /// The bytes being parsed and where their lines start (found when a column is first asked
    /// for): cmark counts columns in bytes, messages count characters.
    var parsedBytes: UnsafeRawBufferPointer?
    var lineStarts: [Int]?

    /// The formulas of the bytes being parsed (`MathSpans`), and how many placeholder
    /// characters of the last one cmark's text has yet to give.
    var math: MathSpans?
    var mathSkip = 0

    mutating func parse(_ bytes: UnsafeRawBufferPointer) throws {
        sectionText = bytes.contains(UInt8(ascii: "^")) ? String(decoding: bytes, as: UTF8.self) : nil
        parsedBytes = bytes
        let protected = MathSpans.protect(bytes)
        math = protected?.1
        defer { sectionText = nil; parsedBytes = nil; lineStarts = nil; math = nil; mathSkip = 0 }
        let read: Void? = try protected.map { data in
            try data.0.withUnsafeBytes { try CMarkParser.withDocument($0) { root in try readBlocks(of: root) } }
        } ?? CMarkParser.withDocument(bytes) { root in try readBlocks(of: root) }
        if read == nil { throw TextReelError(file: fileName, "cmark-gfm could not parse the document") }
    }

    static func validateUTF8(_ data: Data, fileName: String) throws {
        try data.withUnsafeBytes { raw in
            guard let offset = UTF8Text.firstInvalidByte(in: raw) else { return }
            let prefix = raw.prefix(offset)
            let line = prefix.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            let lineStart = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let column = prefix[lineStart...].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            throw TextReelError(file: fileName, line: line, column: column,
                                raw[offset] == 0 ? "a NUL byte; expected text (a binary file?)"
                                    : "invalid UTF-8 (byte 0x\(String(raw[offset], radix: 16))); expected a UTF-8 text file")
        }
    }

    // MARK: Blocks

    mutating func readBlocks(of parent: OpaquePointer) throws {
        let nests = ["block_quote", "item", "tasklist"].contains(typeName(parent))
        try descend(parent, counts: nests)
        defer { if nests { depth -= 1 } }
        var child = cmark_node_first_child(parent)
        while let node = child {
            try readBlock(node)
            child = cmark_node_next(node)
        }
        while let table = openTable {
            // Never closed: the table as its block left it, and the blocks after it as blocks.
            try readHTMLBlock(table.first, line: table.line, closing: true)
            for block in table.blocks { try readBlock(block) }
        }
        if let pending = pendingDisclosure { try addDisclosure(pending, summary: nil) }
    }

    mutating func readBlock(_ node: OpaquePointer) throws {
        let start = Int(cmark_node_get_start_line(node))
        let line = start > 0 ? start + lineOffset : 0    // cmark-gfm gives 0 for some blocks next to tables
        // A formula's placeholder ends in its block: what a table's cells left unread (cmark-gfm
        // cuts a formula's lines into rows) must not eat the next block's text.
        mathSkip = 0
        if cmark_node_get_type(node) == CMARK_NODE_FOOTNOTE_DEFINITION { return try readFootnote(node, line: line) }
        if var table = openTable {
            // Inside a table an HTML block opened: Markdown joins it as the HTML GitHub makes of it.
            table.append(typeName(node) == "html_block" ? source(cmark_node_get_literal(node)) : renderedHTML(node), of: node)
            openTable = table
            if table.depth <= 0 { try readHTMLBlock(table.html, line: table.line, closing: true) }
            return
        }
        if typeName(node) != "html_block" {
            if let pending = pendingDisclosure { try addDisclosure(pending, summary: nil) }
            if hidesBlocks { return }
        }
        switch typeName(node) {
        case "paragraph":
            var inline = InlineBuilder()
            try readInlines(of: node, into: &inline)
            let alone = inline.attachments.count == 1 && inline.text == TextAttachment.character
            if alone, displayFormulas.contains(inline.attachments[0].id) {
                try addDisplayFormula(inline, line: line)
            } else if inline.attachments.contains(where: { displayFormulas.contains($0.id) }) {
                try addAroundDisplayFormulas(inline, line: line)
            } else if alone, blockAlignment == nil {
                // An image alone in a paragraph is a block, unless an element aligns it.
                let attachment = inline.attachments[0].at(offset: 0, isBlock: true)
                try add(.blockAttachment, text: TextAttachment.character, attachments: [attachment], line: line)
            } else if inline.attachments.isEmpty, pendingMarker == nil, inline.text.allSatisfy(\.isWhitespace), Self.isInvisibleHTML(node) {
                // Only inline HTML that shows nothing (`<a id="install"></a>` above a heading):
                // the browser's empty paragraph takes no room.
            } else {
                try add(listKind(or: .body), inline: inline, line: line)
            }
        case "heading":
            var inline = InlineBuilder()
            try readInlines(of: node, into: &inline)
            try add(.heading(level: Int(cmark_node_get_heading_level(node))), inline: inline, line: line)
        case "html_block":
            try readHTMLBlock(source(cmark_node_get_literal(node)), line: line)
        case "code_block":
            var literal = source(cmark_node_get_literal(node))
            while literal.hasSuffix("\n") { literal.removeLast() }
            let info = string(cmark_node_get_fence_info(node))
            var fence: Int32 = 0, offset: Int32 = 0, character: CChar = 0
            let fenced = cmark_node_get_fenced(node, &fence, &offset, &character) != 0
            if let language = MermaidDiagrams.language(ofInfo: info) {
                try addDiagram(literal, language: language, line: line)
                return
            }
            if SyntaxHighlighter.language(ofInfo: info) == "math" {
                var inline = InlineBuilder()
                appendFormula(literal, display: true, line: line + 1, column: nil, into: &inline)
                if inline.attachments.count == 1 {
                    try addDisplayFormula(inline, line: line)
                } else {
                    try addCode(literal, language: nil, line: line, firstCodeLine: line + (fenced ? 1 : 0))
                }
                return
            }
            try addCode(literal, language: info.isEmpty ? nil : info, line: line, firstCodeLine: line + (fenced ? 1 : 0))
        case "thematic_break":
            try add(.thematicBreak, text: "", line: line)
        case "block_quote":
            let first = paragraphs.count
            defer { endBlock(from: first) { $0.quotes += 1 } }
            // An element opened in the quote ends with it, as the HTML element would.
            let outerElements = openElements
            defer { openElements = outerElements }
            if quoteDepth == 0 { listsOutsideQuotes = listDepth }
            quoteDepth += 1
            if let alert = takeAlertMarker(node) {
                alerts.append((alert, quoteDepth))
                var title = InlineBuilder()
                title.push(.strong)
                title.append(alert.icon + "  " + alert.title)
                title.pop()
                try add(listKind(or: .body), inline: title, line: line,
                        extra: [AttributeRun(range: 0..<title.text.utf8.count, attributes: [NSAttributedString.Key.foregroundColor.rawValue: .color(alert.color),
                                                                                             Alert.titleKey: .number(1)])])
                try readBlocks(of: node)
                alerts.removeLast()
            } else {
                try readBlocks(of: node)
            }
            quoteDepth -= 1
        case "list":
            try readList(node)
        case "table":
            try readTable(node, line: line)
        default:
            try readBlocks(of: node)
        }
    }

}
