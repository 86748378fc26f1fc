import Foundation

/// An animated PNG (APNG: plays in every current browser and inline on GitHub), written by
/// TextReel's own PNG writer: the first frame is the image every plain PNG reader shows, the
/// others follow as `fcTL` + `fdAT` chunks. A frame equal to the one before lengthens it instead
/// of being stored again. Byte-identical for the same frames: no clock, no randomness. Written by
/// hand because no well-kept library writes APNG (libpng's APNG patch is not in Debian's libpng).
public final class AnimatedPNG {
    /// One stored frame: its zlib stream, and for how many ticks it shows.
    private struct Frame {
        let stream: [UInt8]
        var ticks: Int
    }

    private let width: Int, height: Int
    /// A tick is 1/fps seconds: delays are `ticks / fps` (`fps` rounded to thousandths).
    private let delayDenominator: UInt16, tickNumerator: Int
    private var frames: [Frame] = []
    private var previousRows: [UInt8]?

    /// An animation of `width` × `height` frames, `fps` frames a second.
    public init(width: Int, height: Int, fps: Double) {
        self.width = width
        self.height = height
        if fps == fps.rounded(), fps >= 1, fps <= 1000 {
            delayDenominator = UInt16(fps)
            tickNumerator = 1
        } else {
            delayDenominator = 1000
            tickNumerator = max(Int((1000 / fps).rounded()), 1)
        }
    }

    /// How many frames are stored (repeats merged).
    public var storedFrames: Int { frames.count }

    /// Adds a rendered frame (its size must be the animation's).
    public func add(_ frame: RenderedFrame) throws {
        try add(rows: PNGWriter.rgbRows(frame.surface), width: frame.width, height: frame.height)
    }

    /// Adds a frame of straight RGBA pixels (alpha dropped: frames are opaque).
    public func add(rgba pixels: [UInt8], width: Int, height: Int) throws {
        let rowBytes = 1 + width * 3
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let source = (y * width + x) * 4, target = y * rowBytes + 1 + x * 3
                rows[target] = pixels[source]; rows[target + 1] = pixels[source + 1]; rows[target + 2] = pixels[source + 2]
            }
        }
        try add(rows: rows, width: width, height: height)
    }

    private func add(rows: [UInt8], width: Int, height: Int) throws {
        guard width == self.width, height == self.height else {
            throw TextReelError("a \(width)×\(height) frame in a \(self.width)×\(self.height) animation; every frame must have the animation's size")
        }
        if rows == previousRows, !frames.isEmpty {
            frames[frames.count - 1].ticks += 1
            return
        }
        frames.append(Frame(stream: try PNGWriter.stream(rows, height: height, compression: .fast), ticks: 1))
        previousRows = rows
    }

    /// The file: signature, header, `acTL` (looping forever), then each frame.
    public func data() throws -> Data {
        guard !frames.isEmpty else { throw TextReelError("an animation needs at least one frame") }
        var png = PNGWriter.start(width: width, height: height, colorType: 2)
        var control = [UInt8]()
        control.append(bigEndian: UInt32(frames.count))
        control.append(bigEndian: 0)   // plays: 0 = forever
        PNGWriter.appendChunk("acTL", control, to: &png)
        var sequence: UInt32 = 0
        for (n, frame) in frames.enumerated() {
            var fc = [UInt8]()
            fc.append(bigEndian: sequence); sequence += 1
            fc.append(bigEndian: UInt32(width)); fc.append(bigEndian: UInt32(height))
            fc.append(bigEndian: 0); fc.append(bigEndian: 0)   // x, y offsets
            // A delay too long for 16 bits in ticks is written in coarser units (ms, 1/100 s, …).
            let seconds = Double(frame.ticks * tickNumerator) / Double(delayDenominator)
            let denominator = [Int(delayDenominator), 1000, 100, 10, 1].first { (seconds * Double($0)).rounded() <= Double(UInt16.max) } ?? 1
            let numerator = min(Int((seconds * Double(denominator)).rounded()), Int(UInt16.max))
            fc += [UInt8(numerator >> 8), UInt8(numerator & 0xFF), UInt8(denominator >> 8), UInt8(denominator & 0xFF)]
            fc += [0, 0]   // dispose: none; blend: source (every frame is whole)
            PNGWriter.appendChunk("fcTL", fc, to: &png)
            if n == 0 {
                PNGWriter.appendChunk("IDAT", frame.stream, to: &png)
            } else {
                var data = [UInt8]()
                data.append(bigEndian: sequence); sequence += 1
                PNGWriter.appendChunk("fdAT", data + frame.stream, to: &png)
            }
        }
        PNGWriter.appendChunk("IEND", [], to: &png)
        return png
    }
}
