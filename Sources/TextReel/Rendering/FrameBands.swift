import Foundation

/// A frame's rows cut into bands for PNG compression. Each band is compressed on its own (a raw
/// deflate piece ended by a full flush, the pigz technique), so a band made of the same surfaces
/// at the same places as one compressed before is a copy of its bytes: in a scroll, the rows of a
/// paragraph wholly on screen were compressed when it first came in, and only the bands at the
/// edges and what is new cost compression.
///
/// The cut is a function of the scene alone (never of what the cache holds): a band starts at the
/// frame's top, at the top of every fragment and every `chunkRows` below it (so a fragment cut by
/// an edge of the frame costs the chunk the edge cuts), so a frame's bytes are the same cold, warm, in a
/// `--frames` sub-range or in a shard; and a piece's bytes depend only on its rows' pixels, which
/// its key names. Cuts depend on where fragments lie in the frame, never on their document y,
/// which an estimate corrected elsewhere shifts without changing a pixel (the explorer found
/// cuts at the first fragment of each 32 px of the document differing between two runs of the
/// same frames). Merging short paragraphs' bands saved no bytes (measured: 16, 32 and 128 px of
/// document per band gave the same total size on a 300-frame scroll; 128 took 1.6× the time).
/// Chunks of 32 rows cost 1.1% in size on that scroll and 0.85× its CPU; 16 rows gave the same
/// time, 64 more.
struct FrameBands: Sendable {
    /// One band: its rows, what they are made of when that is known (nil: something drawn over
    /// them that has no identity, as the caret or an overlay; compressed every time), and its
    /// compressed bytes when the cache held them as the frame was planned (its rows are then not
    /// drawn until something reads the frame's pixels).
    struct Band: Sendable {
        let rows: Range<Int>
        let key: Key?
        var kept: BandCache.Entry? = nil
    }

    /// What a band's pixels are made of: surfaces (which never change once drawn) at places
    /// relative to the band's top, over the background, in a frame of one width.
    struct Key: Hashable, Sendable {
        let width: Int
        let height: Int
        let pieces: [Piece]
    }

    /// A surface in a band: its serial number and where its top left lies from the band's top left.
    struct Piece: Hashable, Sendable {
        let surface: UInt64
        let x: Int
        let y: Int
    }

    /// A fragment's rows are cut every `chunkRows` from its top.
    static let chunkRows = 32

    let bands: [Band]
    /// Where compressed bands are kept between frames (the renderer's).
    let cache: BandCache?

    /// Adjacent ranges (in order) joined.
    static func runs(of ranges: [Range<Int>]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for range in ranges {
            if let last = runs.last, last.upperBound == range.lowerBound { runs[runs.count - 1] = last.lowerBound..<range.upperBound } else { runs.append(range) }
        }
        return runs
    }

    /// The whole frame as one band, not kept (a frame read from a file).
    static func whole(height: Int) -> FrameBands { FrameBands(bands: [Band(rows: 0..<max(height, 1), key: nil)], cache: nil) }
}

extension FrameBands {
    /// What the renderer placed, in device pixels relative to the frame's top left.
    struct Layer {
        /// A surface's serial, its place and size.
        var surfaces: [(serial: UInt64, x: Int, y: Int, width: Int, height: Int)] = []
        /// Rows drawn by something without an identity (a placeholder, the selection, the caret).
        var unkeyed: [Range<Int>] = []
        /// Something drawn over the whole frame (an overlay, a ruler, views): no band is kept.
        var coversAll = false
    }

    /// The bands of a frame `width` × `height` whose fragments start at rows `fragmentTops` (in
    /// order, relative to the frame's top).
    init(width: Int, height: Int, fragmentTops: [Int], layer: Layer, cache: BandCache) {
        var cuts = [0]
        for (k, top) in fragmentTops.enumerated() {
            let next = k + 1 < fragmentTops.count ? min(fragmentTops[k + 1], height) : height
            // The first of its cuts below the last one (a tall fragment may start far above).
            let lowest = cuts[cuts.count - 1] + 1
            let first = top >= lowest ? top : top + (lowest - top + Self.chunkRows - 1) / Self.chunkRows * Self.chunkRows
            for row in stride(from: first, to: next, by: Self.chunkRows) { cuts.append(row) }
        }
        cuts.append(height)
        bands = zip(cuts, cuts.dropFirst()).map { start, end in
            let rows = start..<end
            guard !layer.coversAll, !layer.unkeyed.contains(where: { $0.overlaps(rows) }) else { return Band(rows: rows, key: nil) }
            let pieces = layer.surfaces.filter { $0.y < end && $0.y + $0.height > start && $0.x < width && $0.x + $0.width > 0 }
                .map { Piece(surface: $0.serial, x: $0.x, y: $0.y - start) }
            let key = Key(width: width, height: rows.count, pieces: pieces)
            return Band(rows: rows, key: key, kept: cache.entry(for: key))
        }
        self.cache = cache
    }
}

/// Compressed bands by what they are made of, within a byte budget; the least recently used go
/// first. Shared by the frames of one renderer and the threads encoding them: what it holds
/// changes only how much work a frame costs, never its bytes.
final class BandCache: @unchecked Sendable {
    /// A band compressed: the raw deflate piece of its rows.
    typealias Entry = PNGWriter.DeflatePiece

    private let lock = NSLock()
    private var entries: [FrameBands.Key: (entry: Entry, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    private var bytes = 0
    /// Most bytes of compressed bands kept.
    let budget: Int
    private var counts = (hits: 0, misses: 0)
    /// Bands found kept, and not.
    var hits: Int { lock.withLock { counts.hits } }
    var misses: Int { lock.withLock { counts.misses } }

    init(budget: Int = 24 << 20) { self.budget = budget }

    func entry(for key: FrameBands.Key) -> Entry? {
        lock.withLock {
            clock += 1
            guard let found = entries[key] else { counts.misses += 1; return nil }
            counts.hits += 1
            entries[key] = (found.entry, clock)
            return found.entry
        }
    }

    func store(_ entry: Entry, for key: FrameBands.Key) {
        lock.withLock {
            clock += 1
            if let old = entries.updateValue((entry, clock), forKey: key) { bytes -= old.entry.stream.count }
            bytes += entry.stream.count
            guard bytes > budget else { return }
            // Down to three quarters of the budget, oldest use first.
            for (key, value) in entries.sorted(by: { $0.value.used < $1.value.used }) where bytes > budget * 3 / 4 {
                bytes -= value.entry.stream.count
                entries[key] = nil
            }
        }
    }
}
