import Foundation
import TextReelMarkdown
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
        let write = try Measure.seconds { try Reports.writeHTML(results, scope: GoldenWriteScope(suites: [suite.path]), to: report) }
        let page = report.appendingPathComponent("index.html")
        let size = Double((try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int) ?? 0)
        var opens: [Double] = []
        if let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            for _ in 0..<3 {
                opens.append(try PeersBench.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/chromium-profile",
                                                 "--dump-dom", page.absoluteString]).seconds)
            }
        }
        return ["failingFrames": Double(results.reduce(0) { $0 + $1.diffs.count }), "htmlBytes": size, "writeSeconds": write,
                "openSeconds": opens.isEmpty ? 0 : Measure.median(opens)]
    }
}

/// `textreel test` of an unchanged 300-frame case (a scroll of 10^5 paragraphs) against
/// rendering the same frames, whole processes, alternately: what a passing case costs beyond
/// its render (target ≤ 1.3×).
enum TestOverheadBench {
    static func run(in folder: URL, textreel: String) throws -> [String: Double] {
        let suite = folder.appendingPathComponent("unchanged-suite")
        let document = try BenchDocument.markdownFile(paragraphs: 100_000, in: folder)
        try FileManager.default.createDirectory(at: suite.appendingPathComponent("scroll"), withIntermediateDirectories: true)
        try Data("{fps: 60, viewport: {width: 800, height: 600}, steps: [{scroll: {by: 7200, duration: 5}}]}".utf8)
            .write(to: suite.appendingPathComponent("s300.json5"))
        try Data("{document: \"../../\(document.lastPathComponent)\", script: \"../s300.json5\", frames: \"all\"}".utf8)
            .write(to: suite.appendingPathComponent("scroll/case.json5"))
        try? FileManager.default.removeItem(at: suite.appendingPathComponent("scroll/expected"))
        _ = try PeersBench.run([textreel, "test", suite.path, "--update", "missing", "--quiet"])
        var ratios: [Double] = [], tests: [Double] = [], renders: [Double] = []
        for _ in 0..<5 {
            let test = try PeersBench.run([textreel, "test", suite.path, "--update", "none", "--quiet"])
            let render = try PeersBench.run([textreel, "render", document.path, "--script", suite.appendingPathComponent("s300.json5").path,
                                             "--out", folder.appendingPathComponent("unchanged-render").path, "--quiet"])
            tests.append(test.seconds); renders.append(render.seconds); ratios.append(test.seconds / render.seconds)
        }
        return ["test": Measure.median(tests), "render": Measure.median(renders), "ratio": Measure.median(ratios)]
    }
}
