import CMark
import Foundation

/// Reads Markdown with cmark-gfm (tables, strikethrough, task lists, autolinks) into paragraphs.
/// Every block becomes one `TextParagraph`; images become attachments.
struct MarkdownReader {
    let fileName: String
    let baseURL: URL?
    var paragraphs: [TextParagraph] = []
    var warnings: [String] = []
    private var ordinals: [String: Int] = [:]
    /// Where each attachment id was first used, to warn about repeats.
    private var attachmentIDs: [String: String] = [:]
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
    private var alerts: [(alert: Alert, level: Int)] = []
    /// Block elements that HTML blocks opened and left open (`<div align="center">`, `<details>`),
    /// innermost last: the Markdown blocks after one are inside it until an HTML block closes it
    /// (see `readHTMLBlock`).
    var openElements: [OpenElement] = []
    /// A `<details>` whose HTML block ended before its `<summary>`: drawn with the next block,
    /// which gives the summary when it starts with one (READMEs put a blank line between them).
    var pendingDisclosure: (open: Bool, line: Int)?
    /// An HTML table left open by its block, and the blocks after it as HTML, until one closes
    /// it: a README's `<td>` holding Markdown between blank lines is one table, as on GitHub.
    var openTable: OpenTable?
    /// The HTML block being flushed sets its paragraphs right to left (`dir="rtl"`).
    var htmlRightToLeft = false
    /// The ids of display formulas (`$$…$$`): one alone in its paragraph is centred.
    private var displayFormulas: Set<String> = []
    /// The blocks being read are a footnote's.
    private var inFootnote = false
    /// Footnote definitions read so far: cmark-gfm puts them at the end, in order of first reference.
    private var footnotes = 0

    let limits: ReadingLimits
    /// How deep the walk is in quotes, list items and inline styles: what the nesting limit counts.
    private var depth = 0

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
    private mutating func descend(_ node: OpaquePointer, counts: Bool) throws {
        guard counts else { return }
        depth += 1
        if depth > limits.nesting {
            let (line, column) = position(of: node)
            throw TextReelError(file: fileName, line: line, column: column,
                                "quotes, lists or styles nested more than \(limits.nesting) deep; raise the limit with --max-nesting")
        }
    }

    /// Added to cmark's line numbers: where the section being parsed starts in the file.
    private var lineOffset = 0
    /// The id of the section's first paragraph: its number in the file.
    private var firstID = 0

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
    private var sectionText: String?

    /// The bytes being parsed and where their lines start (found when a column is first asked
    /// for): cmark counts columns in bytes, messages count characters.
    private var parsedBytes: UnsafeRawBufferPointer?
    private var lineStarts: [Int]?

    /// The formulas of the bytes being parsed (`MathSpans`), and how many placeholder
    /// characters of the last one cmark's text has yet to give.
    private var math: MathSpans?
    private var mathSkip = 0

    private mutating func parse(_ bytes: UnsafeRawBufferPointer) throws {
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

    private mutating func readBlocks(of parent: OpaquePointer) throws {
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

    private mutating func readBlock(_ node: OpaquePointer) throws {
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
            } else if alone, blockAlignment == nil {
                // An image alone in a paragraph is a block, unless an element aligns it.
                let attachment = inline.attachments[0].at(offset: 0, isBlock: true)
                try add(.blockAttachment, text: TextAttachment.character, attachments: [attachment], line: line)
            } else if inline.attachments.isEmpty, pendingMarker == nil, Self.isInvisibleHTML(node) {
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

    /// `text` with each range replaced by its emoji, runs and attachments moved with the text.
    static func replacing(_ matches: [(range: Range<Int>, emoji: String)], in text: String, runs: [StyledRun],
                          attachments: [TextAttachment]) -> (String, [StyledRun], [TextAttachment]) {
        var bytes: [UInt8] = [], last = 0
        let source = Array(text.utf8)
        for match in matches {
            bytes += source[last..<match.range.lowerBound] + Array(match.emoji.utf8)
            last = match.range.upperBound
        }
        bytes += source[last...]
        /// Where offset `o` of the old text is in the new one (inside a shortcode: its emoji's end).
        func move(_ o: Int) -> Int {
            var delta = 0
            for match in matches {
                if match.range.upperBound <= o { delta += match.emoji.utf8.count - match.range.count }
                else if match.range.lowerBound < o { return match.range.lowerBound + delta + match.emoji.utf8.count }
                else { break }
            }
            return o + delta
        }
        let moved = runs.compactMap { run -> StyledRun? in
            var run = run
            run.range = move(run.range.lowerBound)..<move(run.range.upperBound)
            return run.range.isEmpty ? nil : run
        }
        return (String(decoding: bytes, as: UTF8.self), moved, attachments.map { $0.at(offset: move($0.utf8Offset), isBlock: $0.isBlock) })
    }

    /// Colours the code block just read from paragraph `first` by its info string's language.
    private mutating func highlightCode(from first: Int, language info: String?) {
        guard paragraphs.count > first, let language = SyntaxHighlighter.language(ofInfo: info),
              let bands = SyntaxHighlighter.highlighted(Array(paragraphs[first...]), language: language) else { return }
        paragraphs.replaceSubrange(first..<first + bands.count, with: bands)
    }

    /// Lines of a code block per paragraph: a longer block is laid out in bands of this many
    /// lines, each its own paragraph (lazily, as paragraphs are), drawn as one box.
    static let codeBandLines = 100

    /// A code block: one paragraph, or bands of `codeBandLines` lines that join up (each band's
    /// source line is its first line's; the first band's the block's).
    mutating func addCode(_ code: String, language: String?, line: Int, firstCodeLine: Int) throws {
        let blockStart = paragraphs.count
        defer { highlightCode(from: blockStart, language: language) }
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > Self.codeBandLines else { return try add(.codeBlock(language: language), text: code, line: line) }
        var first = true, start = firstCodeLine
        while !lines.isEmpty {
            let band = lines.prefix(Self.codeBandLines)
            lines.removeFirst(band.count)
            try add(.codeBlock(language: language), text: band.joined(separator: "\n"), line: first ? line : start)
            let ending = BlockEnding(joinsPrevious: !first, joinsNext: !lines.isEmpty)
            paragraphs[paragraphs.count - 1] = paragraphs[paragraphs.count - 1].with(ending: ending)
            first = false
            start += band.count
        }
    }

    /// "line:column" (characters) where `snippet` is written in the section being read, at or
    /// after `line`; the line alone when it is not found as written (it spans lines).
    private func sourcePlace(of snippet: String, from line: Int) -> String {
        guard let source = sectionText else { return "\(line)" }
        // Lines end as cmark ends them: "\r\n" is one Character, so splitting at "\n" alone
        // would join every line of a CRLF file.
        let lines = source.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        let first = max(line - lineOffset - 1, 0)
        guard first < lines.count else { return "\(line)" }
        for k in first..<lines.count {
            if let range = lines[k].range(of: snippet) {
                return "\(k + 1 + lineOffset):\(lines[k].distance(from: lines[k].startIndex, to: range.lowerBound) + 1)"
            }
        }
        return "\(line)"
    }

    /// Marks the last paragraph read since `first` as ending the block just read.
    mutating func endBlock(from first: Int, _ change: (inout BlockEnding) -> Void) {
        guard paragraphs.count > first else { return }
        var ending = paragraphs[paragraphs.count - 1].ending
        change(&ending)
        paragraphs[paragraphs.count - 1] = paragraphs[paragraphs.count - 1].with(ending: ending)
    }

    private mutating func readList(_ list: OpaquePointer) throws {
        // A list nested in an item follows the item's own text directly.
        if listDepth > 0, let last = paragraphs.last, last.listDepth == listDepth { endBlock(from: 0) { $0.opensList = true } }
        let first = paragraphs.count
        let loose = cmark_node_get_list_tight(list) == 0
        defer {
            if loose { for k in first..<paragraphs.count where paragraphs[k].listDepth == listDepth + 1 {
                var ending = paragraphs[k].ending
                ending.looseList = true
                paragraphs[k] = paragraphs[k].with(ending: ending)
            } }
            // A nested list ends inside its item: only a top-level list takes the space after.
            if listDepth == 0 { endBlock(from: first) { $0.list = true } }
        }
        let ordered = cmark_node_get_list_type(list) == CMARK_ORDERED_LIST
        var number = Int(cmark_node_get_list_start(list))
        listDepth += 1
        defer { listDepth -= 1 }
        var child = cmark_node_first_child(list)
        while let item = child {
            if typeName(item) == "tasklist" {
                pendingMarker = cmark_gfm_extensions_get_tasklist_item_checked(item) ? "☑" : "☐"
            } else {
                // `7)` shows as `7.`: GitHub draws the list as HTML, whose numbers end in a full stop.
                pendingMarker = ListMarker.text(ordered: ordered, number: number, depth: listDepth)
            }
            // An element opened in the item ends with it, as the HTML element would.
            let outerElements = openElements
            try readBlocks(of: item)
            openElements = outerElements
            pendingMarker = nil
            number += 1
            child = cmark_node_next(item)
        }
    }

    /// A table becomes one paragraph per row (cells separated by tabs), all sharing the
    /// table's `TableColumns`: alignments from the delimiter row, and the first rows to measure.
    private mutating func readTable(_ table: OpaquePointer, line: Int) throws {
        let count = Int(cmark_gfm_extensions_get_table_columns(table))
        let marks = cmark_gfm_extensions_get_table_alignments(table)
        let alignments: [TableAlignment] = (0..<count).map { column in
            switch marks.map({ UInt8($0[column]) }) {
            case UInt8(ascii: "l"): .left
            case UInt8(ascii: "c"): .center
            case UInt8(ascii: "r"): .right
            default: .natural
            }
        }
        var rows: [(inline: InlineBuilder, line: Int)] = []
        var row = cmark_node_first_child(table)
        while let rowNode = row {
            var inline = InlineBuilder()
            let header = cmark_gfm_extensions_get_table_row_is_header(rowNode) != 0
            if header { inline.push(.strong) }
            var cell = cmark_node_first_child(rowNode)
            var cells = 0
            while let cellNode = cell {
                if cells > 0 { inline.append("\t") }
                mathSkip = 0   // a formula's placeholder ends in its cell
                try readInlines(of: cellNode, into: &inline)
                cells += 1
                cell = cmark_node_next(cellNode)
            }
            if header { inline.pop() }
            let start = Int(cmark_node_get_start_line(rowNode))
            rows.append((inline, start > 0 ? start + lineOffset : line))
            row = cmark_node_next(rowNode)
        }
        try addTable(rows, alignments: alignments)
    }

    /// A table's rows as paragraphs sharing one `TableColumns` (Markdown's and HTML's tables).
    /// `hasHeader`: the first row is a header (a Markdown table's always is; an HTML table's when
    /// its cells are `<th>`).
    mutating func addTable(_ rows: [(inline: InlineBuilder, line: Int)], alignments: [TableAlignment], hasHeader: Bool = true) throws {
        // Measured as drawn: a cell's `:smile:` is one emoji wide, not its name's width.
        let sample = rows.prefix(TableColumns.sampleRows + 1).map { row in
            let shown = Self.withEmoji(row.inline.text, runs: row.inline.runs, attachments: row.inline.attachments)
            return TableColumns.cells(of: shown.text, runs: shown.runs, attachments: shown.attachments)
        }
        let columns = TableColumns(alignments: alignments, sample: sample, hasHeader: hasHeader)
        for (index, row) in rows.enumerated() {
            try add(.tableRow(TableRow(columns: columns, index: index, isLast: index == rows.count - 1)), inline: row.inline, line: row.line)
        }
    }

    /// When the quote's first line is an alert marker (`[!NOTE]` …), removes it from the tree
    /// (with the line break after it, and the paragraph if nothing else is in it) and says which.
    private func takeAlertMarker(_ quote: OpaquePointer) -> Alert? {
        guard let paragraph = cmark_node_first_child(quote), typeName(paragraph) == "paragraph" else { return nil }
        // cmark splits "[!NOTE]" into text nodes at the brackets: join them up to the line's end.
        var marker = "", nodes: [OpaquePointer] = []
        var child = cmark_node_first_child(paragraph)
        while let node = child, typeName(node) == "text" {
            marker += string(cmark_node_get_literal(node))
            nodes.append(node)
            child = cmark_node_next(node)
        }
        guard let alert = Alert(marker: marker) else { return nil }
        if let lineBreak = child, ["softbreak", "linebreak"].contains(typeName(lineBreak)) { nodes.append(lineBreak) }
        else if child != nil { return nil }
        for node in nodes { cmark_node_free(node) }
        if cmark_node_first_child(paragraph) == nil { cmark_node_free(paragraph) }
        return alert
    }

    /// A footnote's definition: a numbered item under the notes' rule, its last paragraph
    /// ending in a back-reference (↩), as GitHub shows them.
    private mutating func readFootnote(_ node: OpaquePointer, line: Int) throws {
        footnotes += 1
        inFootnote = true
        if footnotes == 1 { try add(.thematicBreak, text: "", line: line) }
        let first = paragraphs.count
        listDepth += 1
        pendingMarker = "\(footnotes)."
        try readBlocks(of: node)
        inFootnote = false
        pendingMarker = nil
        listDepth -= 1
        guard paragraphs.count > first, let last = paragraphs.last, !last.text.isEmpty else { return }
        let start = last.text.utf8.count + 1, arrow = "↩"
        paragraphs[paragraphs.count - 1] = last.replacing(
            text: last.text + " " + arrow,
            runs: last.runs + [StyledRun(range: start..<start + arrow.utf8.count, style: .link, link: "#fnref-\(footnotes)")],
            attachments: last.attachments)
    }

    /// A list item's first block carries its marker; later blocks of the item are continuations.
    mutating func listKind(or kind: ParagraphKind) -> ParagraphKind {
        guard listDepth > 0 else { return kind }
        defer { pendingMarker = nil }
        return .listItem(marker: pendingMarker)
    }

    /// A paragraph style over a paragraph of `length` bytes: how its lines sit, how far it is indented.
    static func paragraphStyle(alignment: TextAlignment, indent: Double = 0, length: Int) -> AttributeRun {
        let style = ParagraphStyle()
        style.alignment = alignment
        style.firstLineHeadIndent = indent
        style.headIndent = indent
        return AttributeRun(range: 0..<max(length, 1), attributes: [NSAttributedString.Key.paragraphStyle.rawValue: .paragraphStyle(style.values)])
    }

    /// A display formula alone in its paragraph, centred as GitHub sets it.
    private mutating func addDisplayFormula(_ inline: InlineBuilder, line: Int) throws {
        try add(listKind(or: .body), inline: inline, line: line, extra: [Self.paragraphStyle(alignment: .center, length: inline.text.utf8.count)])
    }

    mutating func add(_ kind: ParagraphKind, inline: InlineBuilder, line: Int, extra: [AttributeRun] = []) throws {
        try add(kind, text: inline.text, runs: inline.runs, attachments: inline.attachments, line: line, extra: extra)
    }

    /// Text with its emoji shortcodes (outside code spans) replaced by their emoji.
    static func withEmoji(_ text: String, runs: [StyledRun], attachments: [TextAttachment]) -> (text: String, runs: [StyledRun], attachments: [TextAttachment]) {
        let shortcodes = EmojiShortcodes.matches(in: text, excluding: runs.filter { $0.style.contains(.code) }.map(\.range))
        return shortcodes.isEmpty ? (text, runs, attachments) : replacing(shortcodes, in: text, runs: runs, attachments: attachments)
    }

    mutating func add(_ kind: ParagraphKind, text: String, runs: [StyledRun] = [],
                              attachments: [TextAttachment] = [], line: Int, extra: [AttributeRun] = []) throws {
        guard text.utf8.count <= limits.paragraphBytes else {
            throw TextReelError(file: fileName, line: line, limits.paragraphLimitMessage(text.utf8.count))
        }
        // A block other than a paragraph that starts an item (a fence, a heading, a table)
        // carries the item's marker beside its first line.
        var nesting: [String: AttributeValue] = [:]
        if case .listItem = kind {} else if listDepth > 0, let marker = pendingMarker {
            nesting[ListMarker.key] = .string(marker)
            pendingMarker = nil
        }
        if quoteDepth > 0, listsOutsideQuotes > 0 { nesting[ListMarker.listsOutsideQuotesKey] = .number(Double(listsOutsideQuotes)) }
        var source = (text: text, runs: runs, attachments: attachments)
        // Code is as written: no shortcodes, no attribute syntax (the fuzzer found `^[a](k: NaN)`
        // in a fence warning from a section the index was sure of).
        var isCode = false
        if case .codeBlock = kind { isCode = true }
        if !isCode { source = Self.withEmoji(text, runs: runs, attachments: attachments) }
        let extracted = isCode ? MarkdownAttributes.Result(text: source.text, runs: source.runs, attachments: source.attachments, attributes: [])
                               : MarkdownAttributes.extract(text: source.text, runs: source.runs, attachments: source.attachments)
        for problem in extracted.problems {
            warnings.append("\(fileName):\(sourcePlace(of: problem.source, from: line)): warning: \(problem.reason); its text is kept without attributes")
        }
        let text = extracted.text, runs = extracted.runs, attachments = extracted.attachments
        let textLength = text.utf8.count
        let clipped = runs.compactMap { run -> StyledRun? in
            let upper = min(run.range.upperBound, textLength)
            guard run.range.lowerBound < upper else { return nil }
            var copy = run
            copy.range = run.range.lowerBound..<upper
            return copy
        }
        var extra = extra
        if !nesting.isEmpty { extra.append(AttributeRun(range: 0..<max(textLength, 1), attributes: nesting)) }
        // Inside `<div align>`, prose and headings take its alignment (tables and code keep theirs).
        var aligns = true
        switch kind {
        case .tableRow, .codeBlock, .thematicBreak: aligns = false
        default: break
        }
        if aligns, let alignment = blockAlignment,
           !extra.contains(where: { $0.attributes[NSAttributedString.Key.paragraphStyle.rawValue] != nil }) {
            extra.append(Self.paragraphStyle(alignment: alignment, length: textLength))
        }
        if inFootnote { extra.append(AttributeRun(range: 0..<max(textLength, 1), attributes: [AttributeVocabulary.footnote: .number(1)])) }
        // Inside `dir="rtl"`, prose, headings and lists are set right to left (code keeps its direction).
        if aligns, htmlRightToLeft || blockRightToLeft {
            extra.append(AttributeRun(range: 0..<max(textLength, 1), attributes: [TextParagraph.rightToLeftKey: .number(1)]))
        }
        // Inside an alert, every paragraph says which bar is the alert's, and in what colour.
        let alert = alerts.last.map { [AttributeRun(range: 0..<max(textLength, 1), attributes: [
            Alert.barKey: .color($0.alert.color), Alert.levelKey: .number(Double($0.level))])] } ?? []
        paragraphs.append(TextParagraph(id: ParagraphID(firstID + paragraphs.count), kind: kind, text: text, runs: clipped,
                                        attachments: attachments, quoteDepth: quoteDepth, listDepth: listDepth,
                                        sourceLine: line, attributes: alert + extra + extracted.attributes))
    }

    // MARK: Inlines

    private mutating func readInlines(of parent: OpaquePointer, into inline: inout InlineBuilder) throws {
        let nests = ["emph", "strong", "strikethrough", "link", "image"].contains(typeName(parent))
        try descend(parent, counts: nests)
        defer { if nests { depth -= 1 } }
        var child = cmark_node_first_child(parent)
        while let node = child {
            try readInline(node, into: &inline)
            child = cmark_node_next(node)
        }
    }

    private mutating func readInline(_ node: OpaquePointer, into inline: inout InlineBuilder) throws {
        switch typeName(node) {
        case "text":
            if math == nil { inline.append(collapsingSpaces: cmark_node_get_literal(node)) } else { appendMathText(string(cmark_node_get_literal(node)), into: &inline) }
        case "html_inline":
            let (line, column) = position(of: node)
            try readInlineTag(source(cmark_node_get_literal(node)), line: line, column: column, into: &inline)
        case "softbreak":
            // A formula's line break is its own; after a `<br>`, the line break's space would
            // start the next line.
            if mathSkip > 0 { mathSkip -= 1 } else if !inline.endsWithLineSeparator { inline.append(" ") }
        case "linebreak":
            inline.append("\u{2028}")
        case "code":
            if let math { inline.append(math.restored(string(cmark_node_get_literal(node))), extra: .code) } else {
                inline.append(cString: cmark_node_get_literal(node), extra: .code)
            }
        case _ where cmark_node_get_type(node) == CMARK_NODE_FOOTNOTE_REFERENCE:
            // cmark-gfm numbers references in order of first use; the literal is the number.
            let number = string(cmark_node_get_literal(node))
            inline.push([.link, .raised], link: "#fn-\(number)")
            inline.append(number)
            inline.pop()
        case "emph":
            try styled(.emphasis, node, &inline)
        case "strong":
            try styled(.strong, node, &inline)
        case "strikethrough":
            try styled(.strikethrough, node, &inline)
        case "link" where inline.endsWith("^") && string(cmark_node_get_url(node)).hasSuffix(":") && !string(cmark_node_get_title(node)).isEmpty:
            // `^[text](key: "value")`: cmark reads `key:` as a link's destination and the string as
            // its title. It is Apple's attribute syntax: written back as text, it is read as such.
            inline.append("[")
            try readInlines(of: node, into: &inline)
            let title = source(cmark_node_get_title(node)).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            inline.append("](\(source(cmark_node_get_url(node))) \"\(title)\")")
        case "link":
            inline.push(.link, link: source(cmark_node_get_url(node)))
            try readInlines(of: node, into: &inline)
            inline.pop()
        case "image":
            try readImage(node, into: &inline)
        default:
            try readInlines(of: node, into: &inline)
        }
    }

    private mutating func styled(_ style: InlineStyle, _ node: OpaquePointer, _ inline: inout InlineBuilder) throws {
        inline.push(style)
        try readInlines(of: node, into: &inline)
        inline.pop()
    }

    private mutating func readImage(_ node: OpaquePointer, into inline: inout InlineBuilder) throws {
        var alt = InlineBuilder()
        try readInlines(of: node, into: &alt)
        let (line, column) = position(of: node)
        try appendImage(url: source(cmark_node_get_url(node)), alt: alt.text, line: line, column: column, into: &inline)
    }

    /// An image (Markdown's or HTML's `<img>`, with its `width` and `height`) as an attachment.
    mutating func appendImage(url: String, alt: String, declared: (width: Double?, height: Double?) = (nil, nil),
                              line: Int?, column: Int?, into inline: inout InlineBuilder) throws {
        let place = [fileName, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        do {
            let parsed = try AttachmentURL.parse(url, altText: alt, baseURL: baseURL, limits: limits, declared: declared, kinds: kinds) { scheme in
                ordinals[scheme, default: 0] += 1
                return ordinals[scheme]!
            }
            if let warning = parsed.warning { warnings.append("\(place): warning: \(warning)") }
            let id = parsed.attachment.id
            if let first = attachmentIDs[id] {
                warnings.append("\(place): warning: attachment id '\(id)' is used again (first \(first)); steps and scroll targets that name it find the first")
            } else {
                attachmentIDs[id] = line.map { line in "at " + (column.map { "\(line):\($0)" } ?? "\(line)") } ?? "earlier"
            }
            inline.append(attachment: parsed.attachment)
        } catch let error as AttachmentURL.Message {
            throw TextReelError(file: fileName, line: line, column: column, error.text)
        }
    }

    // MARK: Math

    /// Text that may hold formulas' markers: each becomes its typeset formula (or, when the
    /// engine cannot draw it, its source as a code span, with a warning), its placeholder dropped.
    private mutating func appendMathText(_ text: String, into inline: inout InlineBuilder) {
        var plain = ""
        for scalar in text.unicodeScalars {
            if mathSkip > 0 { mathSkip -= 1; continue }
            guard let span = math?.span(marker: scalar) else { plain.unicodeScalars.append(scalar); continue }
            if !plain.isEmpty { inline.append(collapsingSpaces: plain); plain = "" }
            mathSkip = MathSpans.placeholderLength(span)
            appendFormula(span.tex, display: span.display, line: span.line + lineOffset, column: span.column, into: &inline)
        }
        if !plain.isEmpty { inline.append(collapsingSpaces: plain) }
    }

    /// A formula as a math attachment still to be typeset: that waits for its paragraph's first
    /// layout (`AttachmentKind.prepare`), since most of a long document is never shown. One too
    /// large to typeset at all is known now, and is its source, with a warning.
    mutating func appendFormula(_ tex: String, display: Bool, line: Int, column: Int?, into inline: inout InlineBuilder) {
        ordinals["math", default: 0] += 1
        if let problem = MathTypesetter.sizeProblem(of: MathTypesetter.joinedLines(tex)) {
            let place = [fileName, String(line), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
            warnings.append("\(place): warning: math: \(problem.reason); drawn as its source")
            let fence = display ? "$$" : "$"
            inline.append(fence + tex + fence, extra: .code)
            return
        }
        let attachment = TextAttachment.math(tex, ordinal: ordinals["math"]!, isBlock: display)
        if display { displayFormulas.insert(attachment.id) }
        inline.append(attachment: attachment)
    }

    // MARK: Helpers

    /// cmark gives inline positions only on some nodes: fall back to the nearest block's line.
    /// Some blocks next to tables have none at all; then the place is unknown (the document's
    /// own line 1 would be wrong, and differ between a whole parse and one of a section).
    private mutating func position(of node: OpaquePointer) -> (Int?, Int?) {
        if let line = interruptedTableLine(of: node) { return (line + lineOffset, nil) }
        var current: OpaquePointer? = node
        while let n = current, cmark_node_parent(n) != nil {
            let line = Int(cmark_node_get_start_line(n))
            if line > 0 {
                let column = Int(cmark_node_get_start_column(n))
                return (line + lineOffset, column > 0 ? characterColumn(byte: column, line: line) : nil)
            }
            current = cmark_node_parent(n)
        }
        return (nil, nil)
    }

    /// The 1-based column in characters of the 1-based `byte` of the parsed bytes' `line`.
    private mutating func characterColumn(byte: Int, line: Int) -> Int {
        guard let bytes = parsedBytes else { return byte }
        if lineStarts == nil {
            // A line ends at "\n", "\r\n" or a lone "\r", as cmark reads it.
            lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A || (bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A)) }.map { $0 + 1 }
        }
        guard let starts = lineStarts, line - 1 < starts.count else { return byte }
        let start = starts[line - 1], end = min(start + byte - 1, bytes.count)
        // Continuation bytes (10xxxxxx) start no character.
        return bytes[start..<end].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// When a table interrupts a paragraph, cmark-gfm's table extension splits the paragraph: the
    /// lines before the table stay a paragraph with no position, and the table, its header row and
    /// everything in both get the paragraph's first line, with columns counted through the
    /// paragraph's earlier lines (a whole parse and a parse of one section then disagree too).
    /// The body rows keep their true lines, and the header row is the line before the delimiter
    /// row: so a node there gets its true line, without a column. Nil for every other node.
    private func interruptedTableLine(of node: OpaquePointer) -> Int? {
        var current: OpaquePointer? = node
        while let n = current, cmark_node_parent(n) != nil {
            switch typeName(n) {
            case "paragraph" where cmark_node_get_start_line(n) == 0:
                // The paragraph's own lines, up to the table's header.
                if let table = cmark_node_next(n), typeName(table) == "table" { return Int(cmark_node_get_start_line(table)) }
                return nil
            case "table_header", "table_row":
                guard cmark_gfm_extensions_get_table_row_is_header(n) != 0,
                      let table = cmark_node_parent(n), let before = cmark_node_previous(table),
                      typeName(before) == "paragraph", cmark_node_get_start_line(before) == 0 else { return nil }
                var row = cmark_node_next(n)
                while let r = row, cmark_gfm_extensions_get_table_row_is_header(r) != 0 { row = cmark_node_next(r) }
                let delimiter = row.map { Int(cmark_node_get_start_line($0)) - 1 } ?? Int(cmark_node_get_end_line(table))
                return delimiter - 1
            case "table", "document": return nil
            default: current = cmark_node_parent(n)
            }
        }
        return nil
    }

    /// "line:column", "line", or nil when unknown.
    private mutating func location(of node: OpaquePointer) -> String? {
        let (line, column) = position(of: node)
        return line.map { line in column.map { "\(line):\($0)" } ?? "\(line)" }
    }

    /// "file:line:column" as far as known, to start a warning.
    private mutating func place(of node: OpaquePointer) -> String {
        location(of: node).map { "\(fileName):\($0)" } ?? fileName
    }

    private func typeName(_ node: OpaquePointer) -> String { string(cmark_node_get_type_string(node)) }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

    /// Whether a paragraph holds inline HTML and nothing a browser shows besides white space
    /// (`<a id="install"></a>` above a heading). A paragraph of a code span of a space, or of
    /// `&nbsp;`, shows: it takes its line, on GitHub as in the section index's count.
    static func isInvisibleHTML(_ paragraph: OpaquePointer) -> Bool {
        var child = cmark_node_first_child(paragraph), sawHTML = false
        while let node = child {
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_INLINE: sawHTML = true
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: break
            case CMARK_NODE_TEXT:
                let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                guard literal.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) else { return false }
            default: return false
            }
            child = cmark_node_next(node)
        }
        return sawHTML
    }

    /// A block as cmark-gfm writes it in HTML (its raw HTML kept), formulas' markers put back.
    private func renderedHTML(_ node: OpaquePointer) -> String {
        guard let html = cmark_render_html(node, CMARK_OPT_UNSAFE, nil) else { return "" }
        defer { free(html) }
        return source(html)
    }

    /// A literal read as written, its formulas' markers put back as their `$…$`: raw HTML, code,
    /// link and image destinations and titles are not Markdown text, so they show (or point to)
    /// what the source says, never a marker.
    private func source(_ pointer: UnsafePointer<CChar>?) -> String {
        let text = string(pointer)
        return math?.restored(text) ?? text
    }
}
