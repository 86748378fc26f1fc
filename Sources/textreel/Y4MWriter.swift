import Foundation
import TextReelMarkdown

/// Frames as a YUV4MPEG2 stream (4:4:4, BT.601 limited range) that any video tool reads, on a
/// file descriptor (standard output). A reader that closes the pipe early is a clear error, not a
/// silent death by SIGPIPE (the command ignores that signal).
struct Y4MWriter {
    let fd: Int32
    let fps: Double
    private var wroteHeader = false
    private(set) var framesWritten = 0
    private var size: (Int, Int)?

    init(fd: Int32, fps: Double) {
        self.fd = fd
        self.fps = fps
    }

    mutating func write(_ frame: RenderedFrame) throws {
        if let size, size != (frame.width, frame.height) {
            throw TextReelError("frame \(framesWritten + 1) is \(frame.width)×\(frame.height) px but the stream is \(size.0)×\(size.1): a Y4M stream has one frame size, and the script resizes the view; write PNGs instead", exitStatus: 2)
        }
        size = (frame.width, frame.height)
        if !wroteHeader {
            let rate = Int((fps * 1000).rounded())
            try put(Data("YUV4MPEG2 W\(frame.width) H\(frame.height) F\(rate):1000 Ip A1:1 C444\n".utf8))
            wroteHeader = true
        }
        let count = frame.width * frame.height
        var planes = [UInt8](repeating: 0, count: count * 3)
        let rgb = frame.rgbRows(0..<frame.height)
        for i in 0..<count {
            let r = Double(rgb[i * 3]), g = Double(rgb[i * 3 + 1]), b = Double(rgb[i * 3 + 2])
            planes[i] = UInt8(clamping: Int((16 + 0.257 * r + 0.504 * g + 0.098 * b).rounded()))
            planes[count + i] = UInt8(clamping: Int((128 - 0.148 * r - 0.291 * g + 0.439 * b).rounded()))
            planes[2 * count + i] = UInt8(clamping: Int((128 + 0.439 * r - 0.368 * g - 0.071 * b).rounded()))
        }
        try put(Data("FRAME\n".utf8) + Data(planes))
        framesWritten += 1
    }

    private func put(_ data: Data) throws {
        guard let failure = AtomicFile.writeAll(data, to: fd) else { return }
        if failure == EPIPE {
            throw TextReelError("the reader of standard output closed the pipe after \(framesWritten) frame\(framesWritten == 1 ? "" : "s"); the Y4M stream is incomplete", exitStatus: 1)
        }
        throw TextReelError("cannot write the Y4M stream (\(String(cString: strerror(failure))))")
    }
}
