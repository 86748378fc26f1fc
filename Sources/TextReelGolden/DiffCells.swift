import Foundation

/// Where differing pixels lie, as the bounding box of those in each 16 × 16-pixel cell of some
/// rows: kept while they are found (a scroll's diff has half a million; a list of them was a
/// page fault every 512 and a serial pass after the bands), and joined across bands.
struct DiffCells: Sendable {
    static let size = 16

    /// A cell's box, inclusive; empty while `maxX < 0`.
    struct Box: Sendable, Equatable {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var isEmpty: Bool { maxX < 0 }

        mutating func add(_ other: Box) {
            minX = min(minX, other.minX); minY = min(minY, other.minY)
            maxX = max(maxX, other.maxX); maxY = max(maxY, other.maxY)
        }
    }

    private let columns: Int
    /// The cell rows these rows touch.
    private let firstCellRow: Int, cellRows: Int
    private var boxes: [Box] = []

    /// Cells of the rows `rows` of an image `width` pixels wide.
    init(width: Int, rows: Range<Int>) {
        columns = width / Self.size + 1
        firstCellRow = rows.lowerBound / Self.size
        cellRows = rows.isEmpty ? 0 : (rows.upperBound - 1) / Self.size - firstCellRow + 1
    }

    @inline(__always)
    mutating func add(x: Int, y: Int) {
        // Allocated at the first difference: most bands of most comparisons have none.
        if boxes.isEmpty { boxes = Array(repeating: Box(), count: columns * cellRows) }
        let key = (y / Self.size - firstCellRow) * columns + x / Self.size
        boxes[key].add(Box(minX: x, minY: y, maxX: x, maxY: y))
    }

    /// The occupied cells, by their key in the whole image's grid.
    var occupied: [(key: Int, box: Box)] {
        boxes.indices.compactMap { boxes[$0].isEmpty ? nil : ($0 + firstCellRow * columns, boxes[$0]) }
    }

    /// Groups the occupied cells of bands of one image (in any order): cells holding a
    /// difference are joined with their 8 neighbours, and each group gives one box, in the order
    /// of the group's first cell.
    static func regions(_ bands: [[(key: Int, box: Box)]], width: Int) -> [CGRect] {
        let columns = width / size + 1
        var cells: [Int: Box] = [:]
        for band in bands {
            for (key, box) in band { cells[key, default: Box()].add(box) }
        }
        guard let lastKey = cells.keys.max() else { return [] }
        // One slot per cell up to the last occupied one (a 4000 × 3000 image has 47,000): the
        // flood below looks neighbours up without hashing.
        var grid = [Box](repeating: Box(), count: lastKey + 1)
        for (key, box) in cells { grid[key] = box }
        let cellRows = lastKey / columns + 1
        var seen = [Bool](repeating: false, count: grid.count)
        var boxes: [CGRect] = []
        for start in grid.indices where !grid[start].isEmpty && !seen[start] {
            var stack = [start]
            seen[start] = true
            var box = grid[start]
            while let key = stack.popLast() {
                box.add(grid[key])
                let cx = key % columns, cy = key / columns
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = cx + dx, ny = cy + dy
                        guard nx >= 0, nx < columns, ny >= 0, ny < cellRows else { continue }
                        let neighbour = ny * columns + nx
                        if neighbour < grid.count && !grid[neighbour].isEmpty && !seen[neighbour] {
                            seen[neighbour] = true
                            stack.append(neighbour)
                        }
                    }
                }
            }
            boxes.append(CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX + 1, height: box.maxY - box.minY + 1))
        }
        return boxes
    }
}
