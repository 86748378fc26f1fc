import Foundation
import TextReelMarkdown

/// One of N consecutive parts of a render's frames (`render --shard I/N`), and how the parts'
/// folders are joined back (`merge-renders`) into the folder a single render writes.
struct RenderShard: CustomStringConvertible {
    let index: Int, count: Int
    /// The frames this part writes.
    let frames: ClosedRange<Int>

    init(parsing text: String, frameCount: Int, alongWith frames: String?) throws {
        guard frames == nil else { throw Arguments.UsageError(message: "--shard and --frames both choose the frames; give one") }
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
            throw Arguments.UsageError(message: "--shard expects I/N with 1 ≤ I ≤ N, got '\(text)'")
        }
        guard parts[1] <= frameCount else {
            throw Arguments.UsageError(message: "--shard \(text): the script makes \(frameCount) frame\(frameCount == 1 ? "" : "s"), fewer than \(parts[1]) parts")
        }
        index = parts[0]
        count = parts[1]
        self.frames = (index - 1) * frameCount / count + 1...index * frameCount / count
    }

    var description: String { "\(index)/\(count): frames \(frames.lowerBound)-\(frames.upperBound)" }
}

/// `textreel merge-renders`: the parts' folders joined.
enum MergeRendersCommand {
    static let help = """
    Usage: textreel merge-renders <part folder>… --out DIR

    Joins the folders `textreel render --shard I/N` wrote into DIR, which then holds what a
    single render of all the frames writes, byte for byte: the frames (hard links where the file
    system allows), events.jsonl and summary.json. Every part 1 to N must be there once, complete,
    and from the same inputs (document, script, options, environment).

    Example:
      for i in 1 2 3; do textreel render doc.md --script s.json5 --shard $i/3 --out parts/$i; done
      textreel merge-renders parts/1 parts/2 parts/3 --out Output/doc
    """

    struct Part {
        let folder: URL
        let summary: RunSummary
        let index: Int, count: Int
        let frames: ClosedRange<Int>
    }

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .mergeRenders)
        if args.flags.contains("help") { print(help); return 0 }
        guard let out = args.values["out"].map({ URL(fileURLWithPath: $0) }) else { throw Arguments.UsageError(message: "merge-renders needs --out DIR") }
        guard !args.positional.isEmpty else { throw Arguments.UsageError(message: "merge-renders needs the folders of the parts") }
        let parts = try args.positional.map { try read(URL(fileURLWithPath: $0)) }.sorted { $0.index < $1.index }
        let count = parts[0].count
        for part in parts where part.count != count || part.summary.inputs != parts[0].summary.inputs {
            throw TextReelError(file: part.folder.path, "is a part of another render (\(part.count != count ? "\(part.count) parts, not \(count)" : "other inputs: document, script, options or environment")); every part must come from the same render")
        }
        for (i, part) in parts.enumerated() where i > 0 && parts[i - 1].index == part.index {
            throw TextReelError(file: part.folder.path, "is part \(part.index) again (also \(parts[i - 1].folder.path)); give each part once")
        }
        let missing = Set(1...count).subtracting(parts.map(\.index)).sorted()
        guard missing.isEmpty else {
            throw TextReelError("part\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) \(missing.count == 1 ? "is" : "are") missing; render them with --shard I/\(count)")
        }
        // The last part ran every frame: its events are the whole run's (each part's are a prefix).
        let last = parts[parts.count - 1]
        let events = try Data(contentsOf: last.folder.appendingPathComponent("events.jsonl"))
        for part in parts.dropLast() {
            let own = try Data(contentsOf: part.folder.appendingPathComponent("events.jsonl"))
            guard events.starts(with: own) else {
                throw TextReelError(file: part.folder.path, "its events differ from the other parts' for the same frames; it is not a part of this render")
            }
        }
        let fm = FileManager.default
        try? fm.removeItem(at: out)
        try fm.createDirectory(at: out, withIntermediateDirectories: true)
        for part in parts {
            for number in part.frames {
                let name = OutputFolder.frameName(number)
                let source = part.folder.appendingPathComponent(name)
                guard fm.fileExists(atPath: source.path) else {
                    throw TextReelError(file: source.path, "part \(part.index) lacks its frame \(number); render the part again")
                }
                if link(source.path, out.appendingPathComponent(name).path) != 0 { try fm.copyItem(at: source, to: out.appendingPathComponent(name)) }
            }
        }
        try AtomicFile.write(events, to: out.appendingPathComponent("events.jsonl"))
        var summary = last.summary
        summary.shard = nil
        summary.framesWritten = parts.reduce(0) { $0 + $1.summary.framesWritten }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try AtomicFile.write(encoder.encode(summary) + Data("\n".utf8), to: out.appendingPathComponent("summary.json"))
        print("merged \(parts.count) parts into \(out.relativePath)/: \(summary.framesWritten) frames, events.jsonl, summary.json")
        return 0
    }

    private static func read(_ folder: URL) throws -> Part {
        let file = folder.appendingPathComponent("summary.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw TextReelError(file: folder.path, "no summary.json here; expected a folder textreel render --shard wrote")
        }
        let summary: RunSummary
        do { summary = try JSONDecoder().decode(RunSummary.self, from: data) } catch {
            throw TextReelError(file: file.path, "not a render's summary (\(error)); expected a folder textreel render --shard wrote")
        }
        guard let shard = summary.shard else { throw TextReelError(file: folder.path, "is a whole render, not a part (--shard I/N)") }
        guard summary.status == "complete" else { throw TextReelError(file: folder.path, "part \(shard) did not complete (\(summary.status)); render it again") }
        // "2/4: frames 35-68"
        let numbers = shard.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count == 4, numbers[1] >= 1, (1...numbers[1]).contains(numbers[0]), numbers[2] >= 1, numbers[2] <= numbers[3] else {
            throw TextReelError(file: file.path, "its shard '\(shard)' is not I/N: frames A-B with 1 ≤ I ≤ N and A ≤ B")
        }
        return Part(folder: folder, summary: summary, index: numbers[0], count: numbers[1], frames: numbers[2]...numbers[3])
    }
}
