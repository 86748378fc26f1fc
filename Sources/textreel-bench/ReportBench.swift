import Foundation
import TextReel
import TextReelGolden

/// The HTML report of a big failing run: 10 cases of 300 frames each, every frame differing
/// (their document changed after recording). Measures the page's size, the time to write the
/// report, and the time headless Chromium takes to open it as a whole process.
enum ReportBench {
    static func run(in folder: URL) throws -> [String: Double] {
        let suite = folder.appendingPathComponent("report-suite")
        try? FileManager.default.removeItem(at: suite)
        let document = suite.appendingPathComponent("doc.md")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try Data(TextDocument.generatedMarkdown(paragraphs: 400).utf8).write(to: document)
        try Data("{fps: 60, viewport: {width: 480, height: 320}, steps: [{scroll: {by: 6000, duration: 5, curve: \"linear\"}}]}".utf8)
            .write(to: suite.appendingPathComponent("scroll.json5"))
        for k in 0..<10 {
            let case_ = suite.appendingPathComponent("case-\(k)")
            try FileManager.default.createDirectory(at: case_, withIntermediateDirectories: true)
            try Data("{document: \"../doc.md\", script: \"../scroll.json5\", frames: \"all\"}".utf8).write(to: case_.appendingPathComponent("case.json5"))
        }
        var options = GoldenSuite.Options()
        options.update = .missing
        _ = try GoldenSuite.run(GoldenSuite.cases(in: [suite]), options: options)
        // Every frame changes: a word at the top of every paragraph.
        try Data(TextDocument.generatedMarkdown(paragraphs: 400).replacingOccurrences(of: "\n\n", with: "\n\nChanged ").utf8).write(to: document)
        options.update = .never
        let results = try GoldenSuite.run(GoldenSuite.cases(in: [suite]), options: options)
        let report = folder.appendingPathComponent("report")
        let write = try Measure.seconds { try Reports.writeHTML(results, to: report) }
        let page = report.appendingPathComponent("index.html")
        let size = Double((try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int) ?? 0)
        var opens: [Double] = []
        if let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            for _ in 0..<3 {
                opens.append(try Measure.seconds {
                    let p = Process()
                    p.executableURL = URL(fileURLWithPath: chromium)
                    p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/chromium-profile",
                                   "--dump-dom", page.absoluteString]
                    p.standardOutput = FileHandle.nullDevice
                    p.standardError = FileHandle.nullDevice
                    try p.run(); p.waitUntilExit()
                })
            }
        }
        return ["failingFrames": Double(results.reduce(0) { $0 + $1.diffs.count }), "htmlBytes": size, "writeSeconds": write,
                "openSeconds": opens.isEmpty ? 0 : Measure.median(opens)]
    }
}
