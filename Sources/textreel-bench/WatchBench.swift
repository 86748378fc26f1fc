import Foundation
import TextReelMarkdown

/// `preview --watch` on a document of `count` paragraphs, scrolled to its middle, as a person
/// editing it sees it: the file saved with one paragraph in the middle changed, timed from the
/// write to the new version's line on the preview's output (and as the preview reports it, from
/// the change it read to the frame), with the paragraphs it shaped; then a save that changes
/// nothing, timed to its status line.
enum WatchBench {
    static func run(paragraphs count: Int, in folder: URL, textreel: String) throws -> [String: Double] {
        let file = folder.appendingPathComponent("watch-\(count).md"), script = folder.appendingPathComponent("watch-middle.json5")
        var paragraphs = TextDocument.generatedMarkdown(paragraphs: count).components(separatedBy: "\n\n")
        let middle = paragraphs.count / 2
        try Data(paragraphs.joined(separator: "\n\n").utf8).write(to: file)
        try Data("{steps: [{scroll: {toParagraph: \(middle)}}]}\n".utf8).write(to: script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: textreel)
        process.arguments = ["preview", file.path, "--watch", "--json", "--script", script.path, "--frame", "1"]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let versions = LineReader(stdout.fileHandleForReading), statuses = LineReader(stderr.fileHandleForReading)
        guard versions.next() != nil, statuses.next() != nil else { throw TextReelError("preview --watch did not start") }
        var wall: [Double] = [], reported: [Double] = [], shaped: [Double] = []
        for edit in 0..<9 {
            paragraphs[middle] = "The paragraph in the middle, edited for the \(edit)th time, with a few more words."
            let started = DispatchTime.now().uptimeNanoseconds
            try Data(paragraphs.joined(separator: "\n\n").utf8).write(to: file)
            guard versions.next() != nil, let status = statuses.next() else { throw TextReelError("preview --watch stopped") }
            wall.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            reported.append(number(before: " ms from the save", in: status) ?? .nan)
            shaped.append(number(before: " shaped", in: status) ?? .nan)
        }
        var unchanged: [Double] = []
        for _ in 0..<5 {
            let started = DispatchTime.now().uptimeNanoseconds
            try Data(paragraphs.joined(separator: "\n\n").utf8).write(to: file)
            guard let status = statuses.next(), status.contains("nothing drawn") else { throw TextReelError("a save without a change drew a frame") }
            unchanged.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
        return ["editWallMs": Measure.median(wall), "editReportedMs": Measure.median(reported), "editShaped": Measure.median(shaped),
                "unchangedWallMs": Measure.median(unchanged)]
    }

    /// The number just before `marker` in `line` ("… 1 shaped, 8.2 ms from the save …").
    private static func number(before marker: String, in line: String) -> Double? {
        guard let end = line.range(of: marker)?.lowerBound else { return nil }
        return Double(String(line[..<end].reversed().prefix { $0.isNumber || $0 == "." }.reversed()))
    }

    /// Lines from a pipe, waited for at most 30 s each.
    private final class LineReader {
        let fd: Int32
        var buffer: [UInt8] = []
        init(_ handle: FileHandle) { fd = handle.fileDescriptor }
        func next() -> String? {
            let deadline = DispatchTime.now().uptimeNanoseconds + 30_000_000_000
            while true {
                if let end = buffer.firstIndex(of: 0x0A) {
                    defer { buffer.removeSubrange(...end) }
                    return String(decoding: buffer[..<end], as: UTF8.self)
                }
                guard DispatchTime.now().uptimeNanoseconds < deadline else { return nil }
                var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&watched, 1, 100) >= 0 else { return nil }
                guard watched.revents != 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return nil }
                buffer += chunk[..<n]
            }
        }
    }
}
