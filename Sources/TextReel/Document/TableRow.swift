import Foundation

/// One row of a table. Every row is a paragraph of its own, so a table of 40,000 rows is laid
/// out lazily, a viewport at a time, as paragraphs are (TextKit 2 lays a whole table out as one
/// paragraph; this goes beyond it). The row's text is its cells separated by tabs.
public struct TableRow: Hashable, Sendable {
    /// What all rows of the table share: alignments and the cells columns are measured by.
    public let columns: TableColumns
    /// The row's place in the table: 0 is the header row.
    public let index: Int
    /// Whether this is the table's last row (it closes the border and takes the space after).
    public let isLast: Bool

    /// Whether this is the header row (drawn bold, with a heavier rule below).
    public var isHeader: Bool { index == 0 && columns.hasHeader }

    /// Whether the row is striped, as GitHub stripes every second row of a table's body.
    var isStriped: Bool { (columns.hasHeader ? index : index + 1) % 2 == 0 && !isHeader }

    /// Row `index` (0: the header) of the table whose rows share `columns`.
    public init(columns: TableColumns, index: Int, isLast: Bool) {
        self.columns = columns; self.index = index; self.isLast = isLast
    }
}

/// How a column's cells sit (the delimiter row's `:--`, `:-:`, `--:`).
public enum TableAlignment: Hashable, Sendable {
    /// No colon: the natural side of the text's direction.
    case natural, left, center, right
}

/// What every row of one table shares: the column alignments and the rows the column widths are
/// measured from, as browsers' automatic table layout does (each column between its minimum and
/// maximum content width). Only the header and the first `sampleRows` rows are measured, so the
/// widths are known without laying the whole table out; a later cell wider than its column wraps
/// inside it. A class: every row refers to one copy. Equal by content (`fingerprint` first).
public final class TableColumns: Hashable, Sendable {
    /// Rows measured for the widths, after the header.
    public static let sampleRows = 200

    /// Per column.
    public let alignments: [TableAlignment]
    /// The measured rows' cells: text and the runs over it (offsets into the cell's text).
    let sample: [[Cell]]
    /// A stable hash of the alignments and the sample: the key of measured widths.
    let fingerprint: UInt64

    /// A cell as measured.
    package struct Cell: Hashable, Sendable {
        package var text: String
        package var runs: [StyledRun]
        package var attachments: [TextAttachment]
    }

    /// Whether the first row is a header (an HTML table's first row of `<td>` is not).
    public let hasHeader: Bool

    /// The number of columns.
    public var count: Int { alignments.count }

    package init(alignments: [TableAlignment], sample: [[Cell]], hasHeader: Bool = true) {
        self.alignments = alignments
        self.sample = sample
        self.hasHeader = hasHeader
        var hash = StableHash.of(alignments.map { "\($0)" }.joined(separator: ",") + (hasHeader ? "" : " headless"))
        for row in sample {
            for cell in row { hash = (hash ^ StableHash.of(cell.text)) &* 0x100_0000_01B3 }
            hash = (hash ^ 0x0A) &* 0x100_0000_01B3
        }
        fingerprint = hash
    }

    public static func == (lhs: TableColumns, rhs: TableColumns) -> Bool {
        lhs === rhs || (lhs.fingerprint == rhs.fingerprint && lhs.alignments == rhs.alignments && lhs.hasHeader == rhs.hasHeader && lhs.sample == rhs.sample)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

    /// The cells of a row's text: byte ranges between its tabs.
    static func cellRanges(of text: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = [], start = 0, offset = 0
        for byte in text.utf8 {
            if byte == 0x09 { ranges.append(start..<offset); start = offset + 1 }
            offset += 1
        }
        ranges.append(start..<offset)
        return ranges
    }

    /// The cells of a row paragraph as measured: each cell's text, runs and attachments, with
    /// offsets from the cell's start.
    package static func cells(of text: String, runs: [StyledRun], attachments: [TextAttachment]) -> [Cell] {
        let bytes = Array(text.utf8)
        return cellRanges(of: text).map { range in
            Cell(text: String(decoding: bytes[range], as: UTF8.self), runs: runs.compactMap { $0.clipped(to: range) },
                 attachments: attachments.filter { range.contains($0.utf8Offset) }.map { $0.at(offset: $0.utf8Offset - range.lowerBound, isBlock: false) })
        }
    }
}

extension StyledRun {
    /// The part of the run inside `range`, with offsets from `range`'s start; nil if none.
    func clipped(to range: Range<Int>) -> StyledRun? {
        let lower = max(self.range.lowerBound, range.lowerBound), upper = min(self.range.upperBound, range.upperBound)
        guard lower < upper else { return nil }
        return StyledRun(range: (lower - range.lowerBound)..<(upper - range.lowerBound), style: style, link: link)
    }
}
