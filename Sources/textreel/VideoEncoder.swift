import Foundation
import TextReelMarkdown

/// Pipes frames into ffmpeg (as PNGs) to make an .mp4, .gif or .webm.
final class VideoEncoder {
    let output: URL
    private var process: Process?
    private var exitWatch: ProcessExit?
    private var pipe: Pipe?

    init(output: URL, fps: Double) throws {
        self.output = output
        guard ["mp4", "gif", "webm"].contains(output.pathExtension.lowercased()) else {
            throw TextReelError(file: output.path, "unknown video format; expected a .mp4, .gif or .webm file")
        }
        guard Self.ffmpeg != nil else {
            throw TextReelError("--video needs ffmpeg, which is not installed; install it with `sudo apt-get install ffmpeg`, or use --format y4m")
        }
    }

    static var ffmpeg: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func start(fps: Double) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.ffmpeg!)
        var arguments = ["-y", "-loglevel", "error", "-f", "image2pipe", "-framerate", String(fps), "-i", "-"]
        switch output.pathExtension.lowercased() {
        case "mp4": arguments += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]
        case "webm": arguments += ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p"]
        default: arguments += ["-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse"]
        }
        process.arguments = arguments + [output.path]
        let pipe = Pipe()
        process.standardInput = pipe
        exitWatch = ProcessExit(of: process)
        try process.run()
        self.process = process
        self.pipe = pipe
    }

    func add(_ frame: RenderedFrame) throws {
        try pipe?.fileHandleForWriting.write(contentsOf: frame.pngData())
    }

    func finish() throws {
        try pipe?.fileHandleForWriting.close()
        exitWatch?.wait()
        guard process?.terminationStatus == 0 else {
            throw TextReelError(file: output.path, "ffmpeg failed to encode the video (status \(process?.terminationStatus ?? -1))")
        }
    }
}
