import Foundation
import XCTest
@testable import TextReel

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
    static func run(_ arguments: [String], in directory: URL = Paths.root) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
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
