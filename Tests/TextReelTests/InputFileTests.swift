import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Every file TextReel reads by name refuses what the document reader refuses: devices, FIFOs,
/// folders and sizes past a limit end with one clear line and status 2, never a hang or a
/// process that grows without end.
final class InputFileTests: XCTestCase {
    func testScriptsThemesAndCaseFilesRefuseSpecialFiles() throws {
        let folder = Paths.temporaryFolder()
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let huge = folder.appendingPathComponent("huge.json5")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        XCTAssertEqual(truncate(huge.path, off_t(InputFile.maximumTextBytes + 1)), 0)
        let out = folder.appendingPathComponent("o").path
        let demo = "Fixtures/documents/demo.md"
        let cases: [([String], String)] = [
            (["render", demo, "--script", "/dev/zero", "--out", out], "is a character device"),
            (["render", demo, "--script", fifo, "--out", out], "is a FIFO"),
            (["render", demo, "--script", folder.path, "--out", out], "is a folder"),
            (["render", demo, "--script", huge.path, "--out", out], "over the 16 MB limit"),
            (["render", demo, "--theme", "/dev/zero", "--out", out], "is a character device"),
            (["render", demo, "--theme", fifo, "--out", out], "is a FIFO"),
        ]
        for (arguments, needle) in cases {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(needle), "'\(needle)' not in \(result.stderr)")
        }
        // A case whose case.json5 is a FIFO fails alone, with the reason; it does not hang its worker.
        let suite = folder.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite.appendingPathComponent("stuck"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(suite.appendingPathComponent("stuck/case.json5").path, 0o600), 0)
        let test = try CLI.run(["test", suite.path, "--update", "none"])
        XCTAssertNotEqual(test.status, 0)
        XCTAssertTrue(test.stderr.contains("is a FIFO"), test.stderr)
    }

    /// An output no file can be made at (/proc) is refused before the first frame, not after it.
    func testAnOutputFolderThatTakesNoFilesIsRefusedBeforeTheFirstFrame() throws {
        let out = Paths.temporaryFolder().appendingPathComponent("frames")
        let result = try CLI.run(["render", "Fixtures/documents/demo.md", "--out", out.path, "--chart", "/proc/chart.svg"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--chart /proc/chart.svg: the folder /proc does not take files"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("frame-00001.png").path))
    }

    func testAnImageThatIsADeviceIsAPlaceholderThatSaysSo() throws {
        let folder = Paths.temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.png").path, withDestinationPath: "/dev/zero")
        let inspection = ImageFile.inspect(folder.appendingPathComponent("zero.png"), maximumPixels: ImageFile.maximumPixels)
        guard case .problem(let why) = inspection else { return XCTFail("\(inspection)") }
        XCTAssertTrue(why.contains("character device"), why)
    }
}
