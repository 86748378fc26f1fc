import CPango
import Foundation

/// Where a caret goes in a shaped paragraph, from Pango's own cursor functions, so positions are
/// exact in every script: cursor positions (grapheme clusters), word boundaries, caret rects,
/// hit testing and visual motion through bidirectional text. Offsets are UTF-8 bytes of the
/// paragraph's text (the list marker prefix, `shift` bytes, is not part of it); geometry is in
/// points relative to the Pango layout's origin.
struct CursorGeometry {
    let box: PangoLayoutBox
    /// Bytes of the list marker prefix before the paragraph's text.
    let shift: Int
    /// The paragraph's text length in bytes.
    let length: Int

    private var layout: OpaquePointer { box.layout }

    /// A table row's cells, one layout each: `offset` is where the cell's layout sits from the
    /// fragment's layout origin. Empty for a paragraph of one layout.
    var cells: [Cell] = []

    /// One cell of a row: its own geometry (shift: minus the cell's first byte), its bytes.
    struct Cell {
        let geometry: CursorGeometry
        let range: Range<Int>
        let offset: CGPoint
    }

    init(box: PangoLayoutBox, shift: Int, length: Int, cells: [Cell] = []) {
        self.box = box; self.shift = shift; self.length = length; self.cells = cells
    }

    /// The cell holding `offset` (its end included, for a caret after the cell's last character).
    private func cell(at offset: Int) -> Cell? {
        cells.first { $0.range.contains(offset) } ?? cells.first { $0.range.upperBound == offset } ?? cells.last
    }

    /// The width lines wrap at, in points (nil: the layout does not wrap, as a wide table).
    var wrapWidth: Double? {
        let width = FontLock.run { pango_layout_get_width(layout) }
        return width < 0 ? nil : PangoUnits.points(width)
    }

    /// Offsets where a caret may stand (between grapheme clusters), 0 and `length` included.
    var cursorOffsets: [Int] { logOffsets { $0.is_cursor_position != 0 } }
    var wordStarts: [Int] { logOffsets { $0.is_word_start != 0 } }
    var wordEnds: [Int] { logOffsets { $0.is_word_end != 0 } }
    var sentenceStarts: [Int] { logOffsets { $0.is_sentence_start != 0 } }
    var sentenceEnds: [Int] { logOffsets { $0.is_sentence_end != 0 } }

    private func logOffsets(_ test: (PangoLogAttr) -> Bool) -> [Int] {
        if !cells.isEmpty { return Array(Set(cells.flatMap { $0.geometry.logOffsets(test) })).sorted() }
        return FontLock.run {
            var count: Int32 = 0
            guard let attrs = pango_layout_get_log_attrs_readonly(layout, &count) else { return [0, length] }
            let text = pango_layout_get_text(layout)!
            var offsets: [Int] = []
            var byte = 0, character = 0
            // Log attributes are per character (count = characters + 1): walk the UTF-8 bytes.
            while character < Int(count) {
                if byte >= shift, test(attrs[character]) { offsets.append(byte - shift) }
                guard text[byte] != 0 else { break }
                byte += 1
                while (UInt8(bitPattern: text[byte]) & 0xC0) == 0x80 { byte += 1 }
                character += 1
            }
            if offsets.last != length, test(attrs[Int(count) - 1]) { offsets.append(length) }
            return offsets.filter { $0 >= 0 && $0 <= length }
        }
    }

    /// The caret at `offset`: the strong cursor, a zero-width rect of the line's height.
    func caret(at offset: Int) -> CGRect {
        if let cell = cell(at: offset) { return cell.geometry.caret(at: offset).offsetBy(dx: cell.offset.x, dy: cell.offset.y) }
        var strong = PangoRectangle(), weak = PangoRectangle()
        FontLock.run { pango_layout_get_cursor_pos(layout, Int32(offset + shift), &strong, &weak) }
        return PangoUnits.rect(strong)
    }

    /// The caret at the end of the line before the one that starts at `offset` (upstream affinity
    /// at a wrap): after the previous cluster, on its line.
    func caretUpstream(at offset: Int, previous: Int) -> CGRect {
        if let cell = cell(at: previous) {
            return cell.geometry.caretUpstream(at: offset, previous: previous).offsetBy(dx: cell.offset.x, dy: cell.offset.y)
        }
        var line: Int32 = 0, x: Int32 = 0
        var position = PangoRectangle()
        FontLock.run {
            pango_layout_index_to_line_x(layout, Int32(previous + shift), 1, &line, &x)
            pango_layout_index_to_pos(layout, Int32(previous + shift), &position)
        }
        let lineRect = PangoUnits.rect(position)
        return CGRect(x: PangoUnits.points(x), y: lineRect.minY, width: 0, height: lineRect.height)
    }

    /// The offset nearest `point` (rounded to the nearer edge of the cluster hit).
    func offset(at point: CGPoint) -> Int {
        // In a row, the cell under the point's x (or the nearest).
        if let cell = cells.min(by: { distance(point.x, $0) < distance(point.x, $1) }) {
            return cell.geometry.offset(at: CGPoint(x: point.x - cell.offset.x, y: point.y - cell.offset.y))
        }
        var index: Int32 = 0, trailing: Int32 = 0
        FontLock.run { _ = pango_layout_xy_to_index(layout, PangoUnits.units(point.x), PangoUnits.units(point.y), &index, &trailing) }
        return min(max(byte(Int(index), trailing: Int(trailing)) - shift, 0), length)
    }

    /// One visual step left (`direction` < 0) or right from `offset`; nil past the paragraph's
    /// visual start or end.
    func moveVisually(from offset: Int, direction: Int32) -> Int? {
        if let cell = cell(at: offset) {
            // Past a cell's edge, into the next cell (or the previous), in text order.
            if let moved = cell.geometry.moveVisually(from: offset, direction: direction), cell.range.contains(moved) || moved == cell.range.upperBound {
                return moved
            }
            let k = cells.firstIndex { $0.range == cell.range }! + (direction > 0 ? 1 : -1)
            return cells.indices.contains(k) ? (direction > 0 ? cells[k].range.lowerBound : cells[k].range.upperBound) : nil
        }
        var index: Int32 = 0, trailing: Int32 = 0
        FontLock.run { pango_layout_move_cursor_visually(layout, 1, Int32(offset + shift), 0, direction, &index, &trailing) }
        guard index >= 0, index != Int32.max else { return nil }
        let moved = byte(Int(index), trailing: Int(trailing)) - shift
        return moved < 0 ? nil : min(moved, length)
    }

    private func distance(_ x: Double, _ cell: Cell) -> Double {
        let width = cell.geometry.wrapWidth ?? 0
        return x < cell.offset.x ? cell.offset.x - x : max(x - cell.offset.x - width, 0)
    }

    /// The byte `trailing` characters after `index` in the layout's text (Pango gives a position
    /// as an index and a count of characters past it).
    private func byte(_ index: Int, trailing: Int) -> Int {
        guard trailing > 0 else { return index }
        let utf8 = Array(FontLock.run { String(cString: pango_layout_get_text(layout)) }.utf8)
        var byte = index
        for _ in 0..<trailing where byte < utf8.count {
            byte += 1
            while byte < utf8.count && (utf8[byte] & 0xC0) == 0x80 { byte += 1 }
        }
        return byte
    }

    /// One line's share of a range: the line's logical rect, its baseline, the part of the range
    /// on it, and that part's x extents (bidi runs may split it into several).
    struct LinePiece {
        let rect: CGRect
        let baseline: Double
        let range: Range<Int>
        let extents: [(minX: Double, maxX: Double)]
    }

    /// The lines `range` of the text touches, top to bottom, with Pango's x ranges on each.
    func linePieces(_ range: Range<Int>) -> [LinePiece] {
        if !cells.isEmpty {
            return cells.filter { $0.range.overlaps(range) || $0.range.lowerBound == range.lowerBound }.flatMap { cell in
                cell.geometry.linePieces(max(range.lowerBound, cell.range.lowerBound)..<min(range.upperBound, cell.range.upperBound)).map {
                    LinePiece(rect: $0.rect.offsetBy(dx: cell.offset.x, dy: cell.offset.y), baseline: $0.baseline + cell.offset.y, range: $0.range,
                              extents: $0.extents.map { (minX: $0.minX + cell.offset.x, maxX: $0.maxX + cell.offset.x) })
                }
            }
        }
        return FontLock.run {
            var pieces: [LinePiece] = []
            let iter = pango_layout_get_iter(layout)
            defer { pango_layout_iter_free(iter) }
            repeat {
                let line = pango_layout_iter_get_line_readonly(iter)!
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, nil, &logical)
                let start = Int(line.pointee.start_index) - shift, end = start + Int(line.pointee.length)
                let lower = max(range.lowerBound, start), upper = min(range.upperBound, end)
                // A range covering an empty line has a piece there.
                if lower < upper || (lower == upper && upper == end && range.upperBound > end && range.lowerBound <= start) {
                    var ranges: UnsafeMutablePointer<Int32>?
                    var count: Int32 = 0
                    pango_layout_line_get_x_ranges(UnsafeMutablePointer(mutating: line), Int32(lower + shift), Int32(upper + shift), &ranges, &count)
                    let extents = (0..<Int(count)).map { k in
                        (minX: PangoUnits.points(ranges![2 * k]), maxX: max(PangoUnits.points(ranges![2 * k + 1]), PangoUnits.points(ranges![2 * k])))
                    }
                    g_free(ranges)
                    pieces.append(LinePiece(rect: PangoUnits.rect(logical), baseline: PangoUnits.points(pango_layout_iter_get_baseline(iter)),
                                            range: lower..<upper, extents: extents))
                }
            } while pango_layout_iter_next_line(iter) != 0
            return pieces
        }
    }

    /// Rects covering `range` of the text, one per line piece (bidi runs may split a line).
    func selectionRects(_ range: Range<Int>) -> [CGRect] {
        linePieces(range).flatMap { piece in
            piece.extents.map { CGRect(x: $0.minX, y: piece.rect.minY, width: $0.maxX - $0.minX, height: piece.rect.height) }
        }
    }
}
