import Foundation
import Synchronization
import TextReelMarkdown

extension ImageDiff {
    /// Compares two PNG files as `compare` compares their images (and gives the diff image as
    /// `compareEncodingDiffImage` does, when asked), decoding both a band of rows at a time as the
    /// bands are compared, into memory the bands reuse: two 4000 × 3000 images decoded whole are
    /// 96 MB of fresh memory, which the kernel zeroes. Nil when either file is not of the kind
    /// `PNGRowReader` reads, the sizes differ, a row is wider than a megabyte (a band of five
    /// such rows would outweigh the image), or the data is damaged: decode them whole then
    /// (libpng says what is wrong).
    public static func compare(png a: Data, _ b: Data, options: Options = Options(), diffImage: Bool) throws -> (result: Result, png: Data?)? {
        guard let first = PNGRowReader(a, maximumPixels: RGBAImage.maximumPixels),
              let second = PNGRowReader(b, maximumPixels: RGBAImage.maximumPixels),
              first.width == second.width, first.height == second.height, first.width * 4 <= 1 << 20 else { return nil }
        let width = first.width, height = first.height
        let source = BandSource(first, second)
        let found = Found()
        /// False once either image turned out damaged.
        @Sendable func compareBand(_ rows: Range<Int>, _ out: UnsafeMutableRawPointer?, _ stride: Int) -> Bool {
            source.withBand(rows) { found.add(diff(rows: rows, $0, width, height, options, into: out, stride: stride)) }
        }
        var png: Data?
        if diffImage {
            do {
                png = try PNGWriter.encodeRGBA(width: width, height: height) { rows, out, stride in compareBand(rows, out, stride) }
            } catch is PNGWriter.RowsUnavailable {
                return nil
            }
        } else {
            // Bands of about a megabyte an image, which stay in the cores' caches.
            let bandRows = max(1, (1 << 20) / (width * 4)), bands = (height + bandRows - 1) / bandRows
            DispatchQueue.concurrentPerform(iterations: bands) { k in
                _ = compareBand(k * bandRows..<min(height, (k + 1) * bandRows), nil, 0)
            }
        }
        guard source.finish() else { return nil }
        return (found.result(count: width * height, width: width, image: nil), png)
    }
}

/// Two PNGs' rows for the threads that compare them band by band. A band needs its rows and
/// two more on each side (pixelmatch's anti-aliasing test reads that far); the bands decode in
/// the order of their rows, each image on its own turn, so one band's decoding overlaps another's
/// comparison. Callers hand out bands in increasing order of rows, as `concurrentPerform` does,
/// so the band whose turn it is has always started.
final class BandSource: @unchecked Sendable {
    static let margin = 2

    /// One image's reader and the rows decoded last, which the next band also needs. Only the
    /// band whose turn it is touches them.
    private final class Image: @unchecked Sendable {
        let reader: PNGRowReader
        let turn = NSCondition()
        /// The first row of the band whose turn it is.
        var next = 0
        /// The last rows decoded (up to two margins), from row `tailStart`.
        var tail: [UInt8] = []
        var tailStart = 0

        init(_ reader: PNGRowReader) { self.reader = reader }

        /// Waits until the band beginning at `row` has the turn, or `stop` says to end.
        func waitForTurn(at row: Int, unless stop: () -> Bool) {
            turn.lock()
            while next != row && !stop() { turn.wait() }
            turn.unlock()
        }

        /// Wakes the bands waiting for a turn, handing it to the band beginning at `row` when given.
        func wake(passingTurnTo row: Int? = nil) {
            turn.lock()
            if let row { next = row }
            turn.broadcast()
            turn.unlock()
        }
    }

    private let images: [Image]
    private let width: Int, height: Int
    /// Set when either image turns out damaged: every band then ends at once.
    private let damaged = Atomic(false)
    /// Bands' buffers, handed on to the next band: as many are made as run at once.
    private let spare = Mutex<[[UInt8]]>([])

    init(_ a: PNGRowReader, _ b: PNGRowReader) {
        images = [Image(a), Image(b)]
        (width, height) = (a.width, a.height)
    }

    /// Calls `body` with both images' rows of `rows` and their margins, once decoded; false, and
    /// not called, once either image turned out damaged (the bands after it then end at once).
    func withBand(_ rows: Range<Int>, _ body: (ImageDiff.Shared) -> Void) -> Bool {
        precondition(!rows.isEmpty, "a band has rows: two that began at one row would take one turn")
        let first = max(rows.lowerBound - Self.margin, 0), end = min(rows.upperBound + Self.margin, height)
        let rowBytes = width * 4, bytes = (end - first) * rowBytes
        guard !damaged.load(ordering: .relaxed) else { return false }
        var buffers: [[UInt8]] = (0..<2).map { _ in
            if let reused = spare.withLock({ $0.popLast() }), reused.count >= bytes { return reused }
            return [UInt8](unsafeUninitializedCapacity: bytes) { $1 = $0.count }
        }
        var ok = true
        for k in 0..<2 {
            ok = buffers[k].withUnsafeMutableBufferPointer { decode(images[k], rows, first..<end, into: $0.baseAddress!) } && ok
        }
        if ok {
            buffers[0].withUnsafeBufferPointer { a in
                buffers[1].withUnsafeBufferPointer { b in
                    body(ImageDiff.Shared(a: UnsafeBufferPointer(rebasing: a[..<bytes]), b: UnsafeBufferPointer(rebasing: b[..<bytes]), firstRow: first))
                }
            }
        }
        spare.withLock { $0.append(contentsOf: buffers) }
        return ok
    }

    /// On `image`'s turn for the band `rows`: rows `held` into `out`, the ones the last band
    /// decoded from its tail and the rest from the reader.
    private func decode(_ image: Image, _ rows: Range<Int>, _ held: Range<Int>, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        image.waitForTurn(at: rows.lowerBound) { damaged.load(ordering: .relaxed) }
        guard !damaged.load(ordering: .relaxed) else { return false }
        let rowBytes = width * 4, decoded = image.reader.rowsRead
        // Rows above those decoded are the last band's; the tail holds them.
        let fromTail = held.lowerBound..<max(held.lowerBound, decoded)
        image.tail.withUnsafeBufferPointer { tail in
            if !fromTail.isEmpty {
                out.update(from: tail.baseAddress! + (fromTail.lowerBound - image.tailStart) * rowBytes, count: fromTail.count * rowBytes)
            }
        }
        let fresh = max(decoded, held.lowerBound)..<held.upperBound
        guard image.reader.read(fresh.count, into: out + (fresh.lowerBound - held.lowerBound) * rowBytes) else {
            // Every band waiting for a turn is woken to end.
            damaged.store(true, ordering: .relaxed)
            for other in images { other.wake() }
            return false
        }
        let tail = max(held.upperBound - 2 * Self.margin, held.lowerBound)..<held.upperBound
        image.tail = Array(UnsafeBufferPointer(start: out + (tail.lowerBound - held.lowerBound) * rowBytes, count: tail.count * rowBytes))
        image.tailStart = tail.lowerBound
        image.wake(passingTurnTo: rows.upperBound)
        return true
    }

    /// True when both images were read whole and sound.
    func finish() -> Bool {
        !damaged.load(ordering: .relaxed) && images.allSatisfy { $0.reader.finish() }
    }
}
