import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Paths into the package, found from this file's location.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Fixtures")
    static let demo = fixtures.appendingPathComponent("documents/demo.md")

    static func temporaryFolder(_ name: String = #function) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("textreel-tests-\(getpid())")
            .appendingPathComponent(name.filter { $0.isLetter || $0.isNumber })
        try? FileManager.default.removeItem(at: url)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A temporary suite holding the emoji case, with its document changed so the case fails
    /// (for accepting it back): the folder holding `golden/` and `documents/`.
    static func failingEmojiSuite(_ name: String = #function) throws -> URL {
        let root = temporaryFolder(name)
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("golden"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("documents"), withIntermediateDirectories: true)
        try fm.copyItem(at: fixtures.appendingPathComponent("golden/emoji"), to: root.appendingPathComponent("golden/emoji"))
        let text = try String(contentsOf: fixtures.appendingPathComponent("documents/emoji.md"), encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Emoji and scripts", with: "Emoji and SCRIPTS").utf8).write(to: root.appendingPathComponent("documents/emoji.md"))
        return root
    }
}

/// A render that stopped: its folder describes exactly the frames it finished — `summary.json`
/// with `status`, the frame count and an error that mentions `reason`, and one events line per frame.
func assertStoppedRender(in folder: URL, status: String, reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let frames = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("frame-") }
    let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("summary.json"))) as? [String: Any]
    XCTAssertEqual(summary?["status"] as? String, status, file: file, line: line)
    XCTAssertEqual(summary?["frames"] as? Int, frames.count, file: file, line: line)
    XCTAssertTrue((summary?["error"] as? String)?.contains(reason) == true, "\(summary?["error"] ?? "no error")", file: file, line: line)
    let lines = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, frames.count, file: file, line: line)
}

/// Runs the `textreel` executable built beside the tests.
struct CLI {
    struct Result { var status: Int32; var stdout: String; var stderr: String; var stdoutData = Data() }

    static var executable: URL {
        let bundle = Bundle(for: Marker.self).bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("textreel") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
    private final class Marker {}

    @discardableResult
    /// `fileSizeLimitKB` runs it under `ulimit -f` (blocks of 1024 bytes), as CI runners set.
    static func run(_ arguments: [String], in directory: URL = Paths.root, fileSizeLimitKB: Int? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let fileSizeLimitKB {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -f \(fileSizeLimitKB) && exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self), stdoutData: stdout)
    }
}

/// External tools tests drive (ffmpeg, node, chromium, tmux): `make setup` installs them. A
/// missing one skips a test on a developer's machine, and fails it under CI (`CI` set), where
/// a test that passes by skipping would hide a missing install step.
enum Tools {
    /// The tool's path on `PATH`, or nil.
    static func find(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The tool's path; else, under CI, a failure, and elsewhere a skip.
    static func require(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if let path = find(name) { return path }
        let message = "\(name) is not installed (make setup installs it)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("\(message); under CI every tool a test needs must be there", file: file, line: line)
            throw TextReelTestError.missingTool(name)
        }
        throw XCTSkip(message)
    }
}

enum TextReelTestError: Error { case missingTool(String) }

/// Runs a tool of the system (`arguments[0]`, found on the PATH) with its output and errors
/// together.
func runTool(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
