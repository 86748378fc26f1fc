import Foundation
import TextReelMarkdown

/// Where `render` sends its drawn frames. Each output is one sink; `render` parses its options,
/// makes the sinks, and hands every drawn frame to each of them in order.
protocol FrameSink: AnyObject {
    /// Takes frame `number`; a sink that writes the frame to a file of its own returns it, with
    /// its place in the order files are written (see `FrameWriter.framesOnDisk`).
    func add(_ frame: RenderedFrame, number: Int) throws -> (index: Int, url: URL)?
    /// Waits for what is in flight and closes the output.
    func finish() throws
}

/// `frame-00001.png …` in the output folder, encoded on two threads while the next frames draw.
final class PNGFolderSink: FrameSink {
    let folder: URL
    let writer: FrameWriter
    init(folder: URL, writer: FrameWriter) { self.folder = folder; self.writer = writer }

    func add(_ frame: RenderedFrame, number: Int) throws -> (index: Int, url: URL)? {
        let url = folder.appending(path: OutputFolder.frameName(number), directoryHint: .notDirectory)
        return (try writer.write(frame, to: url), url)
    }
    func finish() throws { try writer.finish() }
}

/// `--format y4m`: raw frames on standard output.
final class Y4MSink: FrameSink {
    private var writer: Y4MWriter
    init(fps: Double) { writer = Y4MWriter(fd: STDOUT_FILENO, fps: fps) }
    func add(_ frame: RenderedFrame, number: Int) throws -> (index: Int, url: URL)? {
        try writer.write(frame)
        return nil
    }
    func finish() throws {}
}

/// `--video FILE`: frames piped into ffmpeg.
extension VideoEncoder: FrameSink {
    func add(_ frame: RenderedFrame, number: Int) throws -> (index: Int, url: URL)? {
        try add(frame)
        return nil
    }
}

/// `--contact-sheet`: a numbered grid of all frames, written at the end.
final class ContactSheetSink: FrameSink {
    private let sheet = ContactSheet()
    let url: URL
    init(url: URL) { self.url = url }
    func add(_ frame: RenderedFrame, number: Int) throws -> (index: Int, url: URL)? {
        sheet.add(frame, number: number)
        return nil
    }
    func finish() throws { try sheet.render().write(to: url) }
}
