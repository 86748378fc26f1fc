import Foundation
import TextReelMarkdown

// What the benchmark runs as processes of their own, and the inputs it writes for them.

/// Runs this benchmark again with `args` (one measurement in a fresh process) and reads the
/// JSON object it prints.
func child(_ args: [String]) throws -> [String: Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = args
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let object = try JSONSerialization.jsonObject(with: data) as? [String: Double] else {
        throw TextReelError("benchmark child \(args) failed")
    }
    return object
}

/// Prints one measurement's figures as a JSON object (a child's answer).
func emit(_ result: [String: Double]) {
    let data = try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    FileHandle.standardOutput.write(data)
}

/// The `textreel` binary built beside the benchmark.
let wholeProcessBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("textreel")
/// Seconds of `textreel` as a whole process, five runs (each after `before`, untimed); nil when it is not built.
func processSeconds(_ arguments: [String], runs: Int = 5, before: () -> Void = {}) throws -> [Double]? {
    guard FileManager.default.isExecutableFile(atPath: wholeProcessBinary.path) else { return nil }
    return try (0..<runs).map { _ in
        before()
        return try PeersBench.run([wholeProcessBinary.path] + arguments).seconds
    }
}
/// `a` and `b` as whole processes in turn, seven pairs: each one's median and the median of the
/// pairs' ratios (the machine's speed drifts more between five runs of one and five of the
/// other than the two differ); nil when textreel is not built.
func processPairs(_ a: [String], _ b: [String]) throws -> (a: Double, b: Double, ratio: Double)? {
    var pairs: [(a: Double, b: Double)] = []
    for _ in 0..<7 {
        guard let first = try processSeconds(a, runs: 1), let second = try processSeconds(b, runs: 1) else { return nil }
        pairs.append((first[0], second[0]))
    }
    return (Measure.median(pairs.map(\.a)), Measure.median(pairs.map(\.b)), Measure.median(pairs.map { $0.a / $0.b }))
}
/// A document of `count` tables rows, code lines or inline images (`name`), to time how cost grows.
func growthDocument(_ name: String, _ count: Int, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent("growth-\(name)-\(count).md")
    let text: String
    switch name {
    case "table": text = (["| id | name | description |", "|---|---|---|"] + (0..<count).map { "| \($0) | row \($0) | some words for row \($0) |" }).joined(separator: "\n")
    case "code": text = "```swift\n" + (0..<count).map { "let value\($0) = compute(\($0)) // a line of code" }.joined(separator: "\n") + "\n```"
    default:
        let photo = folder.appendingPathComponent("growth-photo.png")
        if !FileManager.default.fileExists(atPath: photo.path) { try FileManager.default.copyItem(atPath: "Fixtures/documents/media/photo.png", toPath: photo.path) }
        text = (0..<count).map { "Image \($0) ![p](growth-photo.png) inline." }.joined(separator: "\n\n")
    }
    try Data((text + "\n").utf8).write(to: url)
    return url
}
/// A script typing `count` characters at once into a short document's first paragraph.
func typingScript(_ count: Int, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent("growth-type-\(count).json5")
    let text = String(repeating: "typed word ", count: count / 11 + 1).prefix(count)
    try Data("{steps: [{select: {paragraph: 0, from: 0}}, {type: \"\(text)\"}]}\n".utf8).write(to: url)
    return url
}
