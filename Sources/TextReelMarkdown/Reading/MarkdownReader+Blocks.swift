import CMark
import Foundation
import TextReel

/// The blocks cmark-gfm gives, as paragraphs: code in bands, lists, tables, alerts, footnotes.
extension MarkdownReader {
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
    mutating func highlightCode(from first: Int, language info: String?) {
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
    func sourcePlace(of snippet: String, from line: Int) -> String {
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

    mutating func readList(_ list: OpaquePointer) throws {
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
            // More of the item after it follows directly (GitHub's nested lists have no margin),
            // but for a paragraph of a loose item, which keeps its 16 above (`li > p`).
            if listDepth > 0, let next = cmark_node_next(list) {
                let outer = cmark_node_parent(cmark_node_parent(list))
                let spaced = cmark_node_get_type(next) == CMARK_NODE_PARAGRAPH && outer.map { cmark_node_get_list_tight($0) == 0 } == true
                endBlock(from: first) { if spaced { $0.looseList = true } else { $0.opensList = true } }
            }
        }
        let ordered = cmark_node_get_list_type(list) == CMARK_ORDERED_LIST
        var number = Int(cmark_node_get_list_start(list))
        listDepth += 1
        listDirections.append(nil)
        defer { listDepth -= 1; listDirections.removeLast() }
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
    mutating func readTable(_ table: OpaquePointer, line: Int) throws {
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
    func takeAlertMarker(_ quote: OpaquePointer) -> Alert? {
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
    mutating func readFootnote(_ node: OpaquePointer, line: Int) throws {
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
    static func paragraphStyle(alignment: TextAlignment, indent: Double = 0, length: Int, spacedAfter: Bool = true) -> AttributeRun {
        let style = ParagraphStyle()
        style.alignment = alignment
        style.firstLineHeadIndent = indent
        style.headIndent = indent
        var values = style.values
        // A block aligned or indented keeps the look's space around it; one not spaced after has
        // none (the block before it keeps its own space below it).
        values.setsSpacing = !spacedAfter
        return AttributeRun(range: 0..<max(length, 1), attributes: [NSAttributedString.Key.paragraphStyle.rawValue: .paragraphStyle(values)])
    }

    /// A display formula alone in its paragraph, centred as GitHub sets it.
    /// A diagram (` ```mermaid `), centred as GitHub shows one: drawn for the light look and
    /// for the dark one, each shown only in its own (and drawn only when shown), when laid out.
    mutating func addDiagram(_ source: String, language: String, line: Int) throws {
        ordinals["diagram", default: 0] += 1
        var inline = InlineBuilder()
        for dark in [false, true] {
            inline.append(attachment: TextAttachment.diagram(source, language: language, ordinal: ordinals["diagram"]!, dark: dark))
        }
        try addDisplayFormula(inline, line: line)
    }

    mutating func addDisplayFormula(_ inline: InlineBuilder, line: Int) throws {
        try add(listKind(or: .body), inline: inline, line: line, extra: [Self.paragraphStyle(alignment: .center, length: inline.text.utf8.count)])
    }

    /// A paragraph with display formulas (`$$…$$`) amid its text, as MathJax sets it: the text
    /// before each formula a paragraph, the formula a display of its own (centred), the text after
    /// it the next paragraph. (Written alone, a display formula is `addDisplayFormula`'s.)
    mutating func addAroundDisplayFormulas(_ inline: InlineBuilder, line: Int) throws {
        let text = Array(inline.text.utf8)
        var pieces: [(range: Range<Int>, formula: Bool)] = [], start = 0
        for attachment in inline.attachments where displayFormulas.contains(attachment.id) && attachment.utf8Offset < text.count {
            pieces.append((start..<attachment.utf8Offset, false))
            start = attachment.utf8Offset + TextAttachment.character.utf8.count
            pieces.append(((start - TextAttachment.character.utf8.count)..<start, true))
        }
        pieces.append((start..<text.count, false))
        for (range, formula) in pieces {
            // Spaces and line breaks at a piece's ends belonged between it and the formula.
            var lower = range.lowerBound, upper = range.upperBound
            func isBlank(_ at: Int) -> Bool { text[at] == 0x20 || text[at] == 0x0A || (at + 2 < text.count && text[at] == 0xE2 && text[at + 1] == 0x80 && text[at + 2] == 0xA8) }
            while lower < upper, isBlank(lower) { lower += text[lower] == 0xE2 ? 3 : 1 }
            while upper > lower, text[upper - 1] == 0x20 || text[upper - 1] == 0x0A || (upper >= 3 && text[upper - 3] == 0xE2 && text[upper - 2] == 0x80 && text[upper - 1] == 0xA8) {
                upper -= text[upper - 1] == 0xA8 ? 3 : 1
            }
            guard lower < upper else { continue }
            let runs = inline.runs.compactMap { run -> StyledRun? in
                let from = max(run.range.lowerBound, lower), to = min(run.range.upperBound, upper)
                guard from < to else { return nil }
                var moved = run
                moved.range = (from - lower)..<(to - lower)
                return moved
            }
            let attachments = inline.attachments.filter { (lower..<upper).contains($0.utf8Offset) }.map { $0.at(offset: $0.utf8Offset - lower, isBlock: false) }
            let piece = String(decoding: text[lower..<upper], as: UTF8.self)
            let extra = formula ? [Self.paragraphStyle(alignment: .center, length: upper - lower)] : []
            try add(listKind(or: .body), text: piece, runs: runs, attachments: attachments, line: line, extra: extra)
        }
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
        // Prose and headings take the alignment and indent of elements around them (tables and
        // code keep theirs).
        var aligns = true
        switch kind {
        case .tableRow, .codeBlock, .thematicBreak: aligns = false
        default: break
        }
        if aligns, blockAlignment != nil || blockIndent > 0,
           !extra.contains(where: { $0.attributes[NSAttributedString.Key.paragraphStyle.rawValue] != nil }) {
            extra.append(Self.paragraphStyle(alignment: blockAlignment ?? .natural, indent: blockIndent, length: textLength))
        }
        if inFootnote { extra.append(AttributeRun(range: 0..<max(textLength, 1), attributes: [AttributeVocabulary.footnote: .number(1)])) }
        // Inside `dir="rtl"`, prose, headings and lists are set right to left (code keeps its
        // direction). A list takes the direction of its first item's text, as GitHub gives each
        // list `dir="auto"`: a right-to-left list has its bullets on the right, and in a
        // left-to-right one an item in Persian keeps its bullet and its text at the left.
        var listRightToLeft: Bool?
        if case .listItem = kind, quoteDepth == 0, !listDirections.isEmpty {
            if listDirections[listDirections.count - 1] == nil { listDirections[listDirections.count - 1] = Self.startsRightToLeft(text) }
            listRightToLeft = listDirections[listDirections.count - 1]
        }
        if aligns, htmlRightToLeft || blockRightToLeft || listRightToLeft == true {
            extra.append(AttributeRun(range: 0..<max(textLength, 1), attributes: [TextParagraph.rightToLeftKey: .number(1)]))
        } else if listRightToLeft == false, Self.startsRightToLeft(text) {
            extra.append(AttributeRun(range: 0..<max(textLength, 1), attributes: [TextParagraph.rightToLeftKey: .number(0)]))
        }
        // Inside an alert, every paragraph says which bar is the alert's, and in what colour.
        let alert = alerts.last.map { [AttributeRun(range: 0..<max(textLength, 1), attributes: [
            Alert.barKey: .color($0.alert.color), Alert.levelKey: .number(Double($0.level))])] } ?? []
        paragraphs.append(TextParagraph(id: ParagraphID(firstID + paragraphs.count), kind: kind, text: text, runs: clipped,
                                        attachments: attachments, quoteDepth: quoteDepth, listDepth: listDepth,
                                        sourceLine: line, attributes: alert + extra + extracted.attributes))
    }

    /// Whether the first strong character of `text` is right to left (Unicode's bidi classes R and
    /// AL: Hebrew, Arabic, Syriac, Thaana, N'Ko and their kin), as `dir="auto"` decides; letters of
    /// other scripts are left to right; digits, marks, spaces and punctuation are neither.
    static func startsRightToLeft(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0660...0x0669, 0x06F0...0x06F9, 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06ED:
                continue   // Arabic-Indic digits and combining marks: weak or neutral
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
                return true
            default:
                if scalar.properties.isAlphabetic { return false }
            }
        }
        return false
    }
}
