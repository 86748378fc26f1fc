import CMark
import Foundation
import TextReel

/// Where a node is in the file (lines and columns as the user counts them), and cmark's strings.
extension MarkdownReader {
    // MARK: Helpers

    /// cmark gives inline positions only on some nodes: fall back to the nearest block's line.
    /// Some blocks next to tables have none at all; then the place is unknown (the document's
    /// own line 1 would be wrong, and differ between a whole parse and one of a section).
    mutating func position(of node: OpaquePointer) -> (Int?, Int?) {
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
    mutating func characterColumn(byte: Int, line: Int) -> Int {
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
    func interruptedTableLine(of node: OpaquePointer) -> Int? {
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
    mutating func location(of node: OpaquePointer) -> String? {
        let (line, column) = position(of: node)
        return line.map { line in column.map { "\(line):\($0)" } ?? "\(line)" }
    }

    /// "file:line:column" as far as known, to start a warning.
    mutating func place(of node: OpaquePointer) -> String {
        location(of: node).map { "\(fileName):\($0)" } ?? fileName
    }

    func typeName(_ node: OpaquePointer) -> String { string(cmark_node_get_type_string(node)) }

    func string(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

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
    func renderedHTML(_ node: OpaquePointer) -> String {
        guard let html = cmark_render_html(node, CMARK_OPT_UNSAFE, nil) else { return "" }
        defer { free(html) }
        return source(html)
    }

    /// A literal read as written, its formulas' markers put back as their `$…$`: raw HTML, code,
    /// link and image destinations and titles are not Markdown text, so they show (or point to)
    /// what the source says, never a marker.
    func source(_ pointer: UnsafePointer<CChar>?) -> String {
        let text = string(pointer)
        return math?.restored(text) ?? text
    }
}
