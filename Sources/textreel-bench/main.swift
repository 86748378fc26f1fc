import Foundation
import TextReelMarkdown
import TextReelGolden

/// `make bench`: measures loading, first frames, steady scrolling and memory on generated
/// documents, against peers in the same run, and prints one table. Each document size runs in a
/// child process, so peak memory is per size.
let folder = URL(fileURLWithPath: "Output/bench")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let arguments = CommandLine.arguments

let viewport = CGSize(width: 800, height: 600)

// Only the Mermaid figures (`textreel-bench --diagrams`), which make bench prints among the rest.
if arguments.count > 1, arguments[1] == "--diagrams" {
    for (name, value) in DiagramBench.rows(try DiagramBench.run(in: folder, textreel: wholeProcessBinary.path)) { row(name, value) }
    exit(0)
}

if arguments.count > 1, arguments[1] == "--peers" {
    let textreel = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("textreel").path
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try PeersBench.main(folder: folder, textreel: textreel, pairs: arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5)
    exit(0)
}

if arguments.count > 2, arguments[1] == "--child" {
    let count = Int(arguments[3])!
    switch arguments[2] {
    case "first-frame":
        // Loading, then the first frame (layout and draw), three times each; medians.
        let file = try BenchDocument.markdownFile(paragraphs: count, in: folder)
        let bytes = Double((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0)
        var loads: [Double] = [], firsts: [Double] = [], inits: [Double] = []
        var document: TextDocument?
        var view: TextView?
        // Font set-up happens once per thread (fontconfig, Pango): measured on its own.
        let fontSetup = try Measure.seconds { _ = try TextView(document: TextDocument(markdown: "warm"), viewportSize: viewport).renderFrame() }
        for _ in 0..<3 {
            // Free the previous run's document and view before timing anything.
            view = nil
            document = nil
            loads.append(try Measure.seconds { document = try TextDocument(contentsOf: file) })
            let setup = Measure.seconds { view = TextView(document: document!, viewportSize: viewport) }
            inits.append(setup)
            firsts.append(setup + (try Measure.seconds { _ = try view!.renderFrame() }))
        }
        let reading = view!.document.reading
        emit(["load": Measure.median(loads), "mbPerSecond": bytes / 1e6 / Measure.median(loads),
              "firstFrame": Measure.median(firsts), "viewSetup": Measure.median(inits), "fontSetup": fontSetup, "peakMB": Measure.memoryMB("VmHWM"),
              "fileMB": bytes / 1e6, "sections": Double(reading.sections), "parsedAtOpen": Double(reading.parsedAtOpen),
              "lazyParses": Double(reading.lazyParses)])
    case "far-jump":
        // Opening the file and showing one frame, with and without a far jump as the script's
        // step (medians of 3, each from a fresh open); then 300 frames scrolling on from the
        // landing, summing the jump and broken invariants the checks report.
        let file = try BenchDocument.markdownFile(paragraphs: count, in: folder)
        let jump = arguments[4]
        func run(_ steps: String) throws -> (seconds: Double, jump: Double, errors: Double, parses: Double) {
            var moved = 0.0, errors = 0.0, parses = 0.0
            let seconds = try Measure.seconds {
                let view = TextView(document: try TextDocument(contentsOf: file), viewportSize: viewport)
                let script = try ScrollScript(data: Data("{fps: 60, steps: [\(steps)]}".utf8))
                try ScriptRunner(view: view, script: script).run { _, _, event in
                    moved += event.checks.jump
                    errors += Double(event.checks.errors.count)
                }
                parses = Double(view.document.reading.lazyParses)
            }
            return (seconds, moved, errors, parses)
        }
        _ = try run("{wait: 0}")
        let first = try (0..<3).map { _ in try run("{wait: 0}").seconds }
        let landings = try (0..<3).map { _ in try run(jump) }
        let scroll = try run(jump + ", {scroll: {by: 7200, duration: 5, curve: \"linear\"}}")
        emit(["firstFrame": Measure.median(first), "landing": Measure.median(landings.map(\.seconds)),
              "landingParses": landings[0].parses, "scrollJump": scroll.jump, "scrollErrors": scroll.errors])
    case "scroll":
        // 1,000 frames scrolling through, without PNG encoding; then 300 frames writing PNGs.
        let noCache = arguments.count > 4 && arguments[4] == "--no-cache"
        let document = TextDocument.generated(paragraphs: count)
        let view = TextView(document: document, viewportSize: viewport)
        view.cachesFragments = !noCache
        let frames = noCache ? 200 : 1000
        let script = try ScrollScript(data: Data("{fps: 60, steps: [{scroll: {by: \(frames * 24), duration: \(Double(frames) / 60), curve: \"linear\"}}]}".utf8))
        let runner = try ScriptRunner(view: view, script: script)
        var times: [Double] = [], shaped = 0, draws = 0, hits = 0
        var rss100 = 0.0
        var last = DispatchTime.now().uptimeNanoseconds
        try runner.run { number, _, event in
            let now = DispatchTime.now().uptimeNanoseconds
            if number > 1 { times.append(Double(now - last) / 1e6) }
            shaped += event.laidOut.count; draws += event.surfaceDraws; hits += event.surfaceHits
            if number == 100 { rss100 = Measure.memoryMB("VmRSS") }
            last = DispatchTime.now().uptimeNanoseconds
        }
        let rssEnd = Measure.memoryMB("VmRSS")
        var pngBytes = 0, pngFrames = 0
        let pngFolder = folder.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: pngFolder, withIntermediateDirectories: true)
        var modeTimes: [String: [Double]] = [:], modeBytes: [String: Double] = [:]
        let cpuBefore = Measure.cpuSeconds()
        let encoded = noCache ? 0 : try Measure.seconds {
            let writer = FrameWriter(parallel: true)
            let more = try ScriptRunner(view: view, script: try ScrollScript(data: Data("{fps: 60, steps: [{scroll: {by: -7200, duration: 5, curve: \"linear\"}}]}".utf8)))
            try more.run { number, frame, _ in
                guard let frame else { return }
                try writer.write(frame, to: pngFolder.appendingPathComponent(String(format: "frame-%05d.png", number)))
                pngFrames += 1
            }
            try writer.finish()
        }
        let coresBusy = encoded > 0 ? (Measure.cpuSeconds() - cpuBefore) / encoded : 0
        if !noCache {
            for name in try FileManager.default.contentsOfDirectory(atPath: pngFolder.path) {
                pngBytes += (try FileManager.default.attributesOfItem(atPath: pngFolder.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            }
            // Each compression mode and the peers (libpng at its defaults, Cairo's writer), on the
            // same 20 frames, encoding only.
            for _ in 0..<20 {
                view.scroll(by: 240)
                let frame = try view.renderFrame()
                // Every mode encodes the frame anew (no memoized bytes, no kept bands), as the peers do.
                let encoders: [(String, () throws -> Data)] = PNGCompression.allCases.map { mode in
                    (mode.rawValue, { try frame.pngDataEncodedAfresh(compression: mode) })
                } + [("libpng", { try frame.libpngData() }), ("cairo", { try frame.cairoPNGData() })]
                for (name, encode) in encoders {
                    var data = Data()
                    modeTimes[name, default: []].append(try Measure.seconds { data = try encode() })
                    modeBytes[name, default: 0] += Double(data.count) / 20
                }
            }
        }
        let n = Double(times.count + 1)
        emit(["p50": Measure.median(times), "p95": Measure.percentile(times, 0.95),
              "fpsNoEncode": 1000 / max(Measure.median(times), 1e-9),
              "fpsWithPNG": encoded > 0 ? Double(pngFrames) / encoded : 0,
              "shapedPerFrame": Double(shaped) / n, "drawsPerFrame": Double(draws) / n, "hitsPerFrame": Double(hits) / n,
              "rssAt100": rss100, "rssAtEnd": rssEnd, "peakMB": Measure.memoryMB("VmHWM"),
              "pngBytesPerFrame": pngFrames > 0 ? Double(pngBytes) / Double(pngFrames) : 0,
              "coresBusy": coresBusy]
             .merging(modeTimes.mapValues { Measure.median($0) * 1000 }.map { ("ms." + $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
             .merging(modeBytes.map { ("bytes." + $0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))
    case "waits":
        // 200 frames of scrolling, then 100 of waiting, each written as PNG (serially, so each
        // frame's cost is its own): what does a frame that changed nothing cost?
        let view = TextView(document: TextDocument.generated(paragraphs: count), viewportSize: viewport)
        let script = try ScrollScript(data: Data("{fps: 60, steps: [{scroll: {by: 4800, duration: 3.333, curve: \"linear\"}}, {wait: 1.666}]}".utf8))
        let pngFolder = folder.appendingPathComponent("waits")
        try FileManager.default.createDirectory(at: pngFolder, withIntermediateDirectories: true)
        let writer = FrameWriter(parallel: false)
        var drawn: [Double] = [], repeated: [Double] = []
        var last = DispatchTime.now().uptimeNanoseconds
        try ScriptRunner(view: view, script: script).run { number, frame, _ in
            guard let frame else { return }
            try writer.write(frame, to: pngFolder.appendingPathComponent(String(format: "frame-%05d.png", number)))
            let now = DispatchTime.now().uptimeNanoseconds
            if number > 1 { (frame.isRepeat ? { repeated.append($0) } : { drawn.append($0) })(Double(now - last) / 1e6) }
            last = DispatchTime.now().uptimeNanoseconds
        }
        emit(["drawnMs": Measure.median(drawn), "repeatMs": Measure.median(repeated), "repeats": Double(repeated.count)])
    case "drawings":
        // 200 drawings, scrolled through down, up and down again, with or without the policy.
        let policy = arguments.count > 4 && arguments[4] == "--policy"
        var markdown = ""
        for i in 0..<count { markdown += "Drawing \(i) follows.\n\n![](drawing:d\(i)?size=300x120)\n\n" }
        let view = TextView(document: try TextDocument(markdown: markdown), viewportSize: viewport)
        if policy {
            for type in [DrawingAttachmentViewProvider.self, VideoAttachmentViewProvider.self, ControlAttachmentViewProvider.self,
                         ImageAttachmentViewProvider.self] as [TextAttachmentViewProvider.Type] {
                view.register(.onScrollingOutOfViewport, forTextAttachmentViewProviderType: type)
            }
            view.maximumKeptAttachmentViews = 100_000
            view.maximumKeptAttachmentBytes = 1 << 40
        }
        let height = view.textLayoutManager.documentHeight
        let script = try ScrollScript(data: Data("""
            {fps: 60, steps: [{scroll: {to: \(height), duration: 4, curve: "linear"}}, {scroll: {to: 0, duration: 4, curve: "linear"}},
                              {scroll: {to: \(height), duration: 4, curve: "linear"}}]}
            """.utf8))
        var draws = 0, times: [Double] = []
        var last = DispatchTime.now().uptimeNanoseconds
        try ScriptRunner(view: view, script: script).run { number, _, event in
            let now = DispatchTime.now().uptimeNanoseconds
            if number > 1 { times.append(Double(now - last) / 1e6) }
            draws += event.attachmentDraws
            last = DispatchTime.now().uptimeNanoseconds
        }
        emit(["draws": Double(draws), "p50": Measure.median(times), "mean": times.reduce(0, +) / Double(max(times.count, 1))])
    case "report":
        emit(try ReportBench.run(in: folder))
    case "unchanged":
        emit(try TestOverheadBench.run(in: folder, textreel: URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("textreel").path))
    case "typing":
        emit(try TypingBench.run(paragraphs: count, in: folder))
    default:
        exit(2)
    }
    exit(0)
}

// The driver.
print("TextReel benchmark — 800 × 600 at scale 1; medians of 3 runs unless noted")
var results: [String: [String: Double]] = [:]
for count in [1_000, 100_000, 1_000_000] {
    // Generated here, so the child's peak memory is the reader's and the view's alone.
    _ = try BenchDocument.markdownFile(paragraphs: count, in: folder)
    FileHandle.standardError.write(Data("… first frame, \(count) paragraphs\n".utf8))
    results["first-\(count)"] = try child(["--child", "first-frame", "\(count)"])
}
FileHandle.standardError.write(Data("… far jumps\n".utf8))
results["jump-paragraph"] = try child(["--child", "far-jump", "100000", "{scroll: {toParagraph: 40000}}"])
results["jump-heading"] = try child(["--child", "far-jump", "1000000", "{scroll: {toHeading: \"Section 25000\"}}"])
FileHandle.standardError.write(Data("… scrolling 100,000 paragraphs\n".utf8))
results["scroll"] = try child(["--child", "scroll", "100000"])
FileHandle.standardError.write(Data("… scrolling without caches\n".utf8))
results["scroll-nocache"] = try child(["--child", "scroll", "100000", "--no-cache"])
FileHandle.standardError.write(Data("… 300 frames, 100 of them waiting\n".utf8))
results["waits"] = try child(["--child", "waits", "100000"])
results["typing"] = try child(["--child", "typing", "100000"])
FileHandle.standardError.write(Data("… 200 drawings, with and without the scrolling policy\n".utf8))
results["drawings-policy"] = try child(["--child", "drawings", "200", "--policy"])
results["drawings-none"] = try child(["--child", "drawings", "200", "--none"])

FileHandle.standardError.write(Data("… reading scripts of 10^3 to 10^5 steps\n".utf8))
results["script"] = try ScriptReading.measure()

// Image diff speed: two different 1600 × 1200 frames (scale 2), and the exact fast path.
FileHandle.standardError.write(Data("… image diff\n".utf8))
let diffView = TextView(document: try TextDocument(contentsOf: URL(fileURLWithPath: "Fixtures/documents/demo.md")),
                        viewportSize: viewport, scale: 2)
let frameA = RGBAImage(try diffView.renderFrame())
diffView.scroll(by: 3)
let frameB = RGBAImage(try diffView.renderFrame())
let megapixels = Double(frameA.width * frameA.height) / 1e6
let slow = Measure.median((0..<5).map { _ in Measure.seconds { _ = ImageDiff.compare(frameA, frameB, makeImage: true) } })
let fast = Measure.median((0..<5).map { _ in Measure.seconds { _ = ImageDiff.compare(frameA, frameA, makeImage: false) } })
results["diff"] = ["mpsDiffering": megapixels / slow, "mpsIdentical": megapixels / fast]

// `textreel diff` as a whole process (decoding both PNGs, comparing, writing the diff image) on
// two differing 4000 × 3000 frames (800 × 600 at scale 5).
let bigView = TextView(document: try TextDocument(contentsOf: URL(fileURLWithPath: "Fixtures/documents/demo.md")),
                       viewportSize: viewport, scale: 5)
let bigA = folder.appendingPathComponent("diff-a.png"), bigB = folder.appendingPathComponent("diff-b.png")
try bigView.renderFrame().write(to: bigA)
bigView.scroll(by: 3)
try bigView.renderFrame().write(to: bigB)
// Eleven runs: a tenth of a second each, on a machine whose speed drifts.
let diffRuns = try processSeconds(["diff", bigA.path, bigB.path, "--out", folder.appendingPathComponent("diff-out.png").path], runs: 11)
results["diff"]!["processMps"] = diffRuns.map { 12 / Measure.median($0) } ?? 0

// The issue's whole-process rows: a first frame of 10^3 paragraphs, and a 300-frame scroll of
// 10^5 writing PNGs, into a new folder (the last run's deleted first) and again into the folder
// of the last run (whose frames' files become the new frames').
let scrollScript = folder.appendingPathComponent("process-scroll.json5"), scrollOut = folder.appendingPathComponent("process-scroll")
try Data(#"{fps: 60, steps: [{wait: 0}, {scroll: {by: 7176, duration: 4.98, curve: "linear"}}]}"#.utf8).write(to: scrollScript)
let firstPair = try processPairs(["render", BenchDocument.markdownFile(paragraphs: 1000, in: folder).path, "--quiet",
                                  "--out", folder.appendingPathComponent("process-first").path], ["--version"])
let scrollRuns = try processSeconds(["render", BenchDocument.markdownFile(paragraphs: 100_000, in: folder).path, "--script", scrollScript.path,
                                     "--quiet", "--out", scrollOut.path]) { try? FileManager.default.removeItem(at: scrollOut) }
let againRuns = try processSeconds(["render", BenchDocument.markdownFile(paragraphs: 100_000, in: folder).path, "--script", scrollScript.path,
                                    "--quiet", "--out", scrollOut.path])
results["process"] = ["firstFrame1000": firstPair?.a ?? 0, "scrollFps": scrollRuns.map { 300 / Measure.median($0) } ?? 0,
                      "scrollAgainFps": againRuns.map { 300 / Measure.median($0) } ?? 0,
                      "version": firstPair?.b ?? 0, "firstOverVersion": firstPair?.ratio ?? 0]

// A suite of 8 small cases (a document of 40 paragraphs each, 20 frames of scrolling), recorded
// once, then compared with the default workers (processes) and with one.
let suite = folder.appendingPathComponent("suite")
try? FileManager.default.removeItem(at: suite)
for k in 0..<8 {
    let case_ = suite.appendingPathComponent("case-\(k)")
    try FileManager.default.createDirectory(at: case_, withIntermediateDirectories: true)
    try Data(TextDocument.generatedMarkdown(paragraphs: 40 + k).utf8).write(to: case_.appendingPathComponent("document.md"))
    try Data(#"{fps: 60, viewport: {width: 480, height: 360, scale: 1}, steps: [{scroll: {by: 480, duration: 0.33, curve: "linear"}}]}"#.utf8)
        .write(to: case_.appendingPathComponent("script.json5"))
    try Data(#"{document: "document.md", script: "script.json5", frames: "all"}"#.utf8).write(to: case_.appendingPathComponent("case.json5"))
}
_ = try processSeconds(["test", suite.path, "--update", "missing"])
if let pair = try processPairs(["test", suite.path], ["test", suite.path, "--workers", "1"]) {
    results["suite"] = ["default": pair.a, "one": pair.b, "ratio": pair.ratio]
}
// preview --watch of 10^4 paragraphs scrolled to the middle, a paragraph there edited.
if FileManager.default.isExecutableFile(atPath: wholeProcessBinary.path) {
    FileHandle.standardError.write(Data("… preview --watch, a save of 10,000 paragraphs\n".utf8))
    results["watch"] = try WatchBench.run(paragraphs: 10_000, in: folder, textreel: wholeProcessBinary.path)
    FileHandle.standardError.write(Data("… eight Mermaid diagrams, drawn, read back, below the frame\n".utf8))
    results["diagrams"] = try DiagramBench.run(in: folder, textreel: wholeProcessBinary.path)
}

// Costs that must grow with the input, no faster: a first frame of one long table, one long
// code block and one image referenced many times, at two sizes each (whole process).
var growth: [String: Double] = [:]
for (name, sizes) in [("table", [10_000, 40_000]), ("code", [10_000, 40_000]), ("images", [400, 4_000]), ("type", [10_000, 40_000])] {
    for count in sizes {
        let input = name == "type" ? ["render", try growthDocument("images", 1, in: folder).path, "--script", try typingScript(count, in: folder).path]
                                   : ["render", try growthDocument(name, count, in: folder).path]
        let runs = try processSeconds(input + ["--quiet", "--out", folder.appendingPathComponent("growth-out").path])
        growth["\(name)-\(count)"] = runs.map(Measure.median) ?? 0
    }
}
results["growth"] = growth

results["report"] = try child(["--child", "report", "0"])
results["unchanged"] = try child(["--child", "unchanged", "0"])

let pangoView = try PeersBench.pangoView(in: folder)

func row(_ name: String, _ value: String) { print(name.padding(toLength: max(58, name.count + 1), withPad: " ", startingAt: 0) + value) }
func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
print("")
for count in [1_000, 100_000, 1_000_000] {
    let r = results["first-\(count)"]!
    row("open \(count) paragraphs (\(f(r["fileMB"]!, 1)) MB): index", "\(f(r["load"]! * 1000, 1)) ms   \(f(r["mbPerSecond"]! / 1000, 2)) GB/s  (target ≥ 2)")
    row("  sections: parsed at open / parsed for the first frame", "\(f(r["sections"]!, 0)): \(f(r["parsedAtOpen"]!, 0)) / \(f(r["lazyParses"]!, 0))")
    row("first frame \(count) paragraphs (layout + draw)", "\(f(r["firstFrame"]! * 1000, 1)) ms  (font set-up before it: \(f(r["fontSetup"]! * 1000, 0)) ms, once per thread)")
    // Peak memory is in MiB (the kernel's kB / 1024), the file in MB: compare like with like.
    row("peak memory \(count) paragraphs", "\(f(r["peakMB"]!, 0)) MiB  (\(f(r["peakMB"]! * 1.048576 / max(r["fileMB"]!, 0.001), 2))× the file; target ≤ 1.5× at 10^6)")
}
let r1k = results["first-1000"]!, r1m = results["first-1000000"]!
row("first frame 1,000,000 ÷ 1,000", "\(f(r1m["firstFrame"]! / r1k["firstFrame"]!))×  (target ≤ 1.5×)")
for (key, label) in [("jump-paragraph", "toParagraph 40,000 in 100,000"), ("jump-heading", "toHeading last section of 1,000,000")] {
    let j = results[key]!
    row("\(label): open + landing frame", "\(f(j["landing"]! * 1000, 1)) ms against \(f(j["firstFrame"]! * 1000, 1)) ms for a first frame (\(f((j["landing"]! - j["firstFrame"]!) * 1000, 1)) ms more, target ≤ 10)")
    row("  then 300 frames scrolling: jump / broken invariants", "\(f(j["scrollJump"]!, 1)) pt / \(f(j["scrollErrors"]!, 0))  (sections parsed to land: \(f(j["landingParses"]!, 0)))")
}
let s = results["scroll"]!, n = results["scroll-nocache"]!
row("scroll 100,000: frame time p50 / p95 (no PNG)", "\(f(s["p50"]!)) / \(f(s["p95"]!)) ms  (target p95 < 2 ms)")
row("scroll 100,000: frames per second, no PNG / writing PNGs", "\(f(s["fpsNoEncode"]!, 0)) / \(f(s["fpsWithPNG"]!, 0))  (target ≥ 150 with PNGs)")
row("per frame: shaped / surfaces drawn / from cache", "\(f(s["shapedPerFrame"]!)) / \(f(s["drawsPerFrame"]!)) / \(f(s["hitsPerFrame"]!))")
row("memory while scrolling: RSS at frame 100 → 1000", "\(f(s["rssAt100"]!, 1)) → \(f(s["rssAtEnd"]!, 1)) MB")
row("scroll 100,000 writing PNGs: cores busy (of 2)", "\(f(s["coresBusy"]!))")
row("PNG bytes per frame written (fast)", "\(f(s["pngBytesPerFrame"]! / 1000, 1)) KB")
for name in ["fast", "small", "none", "libpng", "cairo"] {
    let ms = s["ms.\(name)"] ?? 0, kb = (s["bytes.\(name)"] ?? 0) / 1000
    let label = ["fast": "PNG fast (ISA-L)", "small": "PNG small (libdeflate 9)", "none": "PNG none (stored)",
                 "libpng": "peer: libpng defaults", "cairo": "peer: Cairo's writer"][name]!
    row("\(label): per frame", "\(f(ms)) ms  \(f(kb, 1)) KB  (\(f(kb * 1000 / max(s["bytes.libpng"] ?? 1, 1)))× libpng's size)")
}
row("PNG fast: targets", "≤ 1.0 ms per frame, ≤ 1.30× libpng's size; ≥ 1,150 frames/s end to end")
let rp = results["report"]!
row("report of 10 failing cases × 300 frames: page / written in", "\(f(rp["htmlBytes"]! / 1e6, 2)) MB (\(f(rp["failingFrames"]!, 0)) failing frames) / \(f(rp["writeSeconds"]!, 2)) s  (target < 1 MB)")
row("  opened by headless Chromium, whole process", rp["openSeconds"]! > 0 ? "\(f(rp["openSeconds"]!, 2)) s  (target < 2 s)" : "chromium not installed")
let u = results["unchanged"]!
row("textreel test of an unchanged 300-frame case / its render", "\(f(u["test"]! * 1000, 0)) / \(f(u["render"]! * 1000, 0)) ms: \(f(u["ratio"]!))×  (target ≤ 1.2×)")
let t = results["typing"]!
row("typing a character a frame into 100,000, writing PNGs", "\(f(t["fps"]!, 0)) frames/s  (target ≥ 300)")
row("  per frame: paragraphs shaped / surfaces drawn", "\(f(t["shapedPerFrame"]!)) / \(f(t["drawsPerFrame"]!))")
row("caret moving a character a frame (no PNG): p50, surfaces drawn", "\(f(t["caretP50"]!)) ms, \(f(t["caretDraws"]!)) per frame")
row("selection growing a character a frame (no PNG): p50, surfaces", "\(f(t["selectionP50"]!)) ms, \(f(t["selectionDraws"]!)) per frame")
row("  against a frame scrolled a point, no selection: p50", "\(f(t["stillP50"]!)) ms")
let w = results["waits"]!
row("300 frames, 100 waiting: drawn / repeated frame", "\(f(w["drawnMs"]!)) / \(f(w["repeatMs"]!)) ms  (\(f(100 * w["repeatMs"]! / max(w["drawnMs"]!, 1e-9), 1))%, target ≤ 10%)")
row("peer: --no-cache frame time p50 (ratio to cached)", "\(f(n["p50"]!)) ms  (\(f(n["p50"]! / s["p50"]!, 1))×)")
row("image diff, differing 1600×1200 frames (with diff image)", "\(f(results["diff"]!["mpsDiffering"]!, 0)) MP/s")
row("image diff, identical frames (exact fast path)", "\(f(results["diff"]!["mpsIdentical"]!, 0)) MP/s")
if let process = results["process"], process["scrollFps"]! > 0 {
    row("first frame 1000 paragraphs, whole process", "\(f(process["firstFrame1000"]! * 1000, 1)) ms  (target ≤ 30)")
    row("  against textreel --version, whole process", "\(f(process["version"]! * 1000, 1)) ms: \(f(process["firstOverVersion"]!))×, median of 7 pairs  (target ≤ 2.2×)")
    row("300-frame scroll of 100,000 writing PNGs, whole process", "\(f(process["scrollFps"]!, 0)) frames/s  (target ≥ 1,150)")
    row("  the same again into the last run's folder", "\(f(process["scrollAgainFps"]!, 0)) frames/s")
}
if let w = results["watch"] {
    row("preview --watch 10,000: a save to the new frame (wall / as reported)", "\(f(w["editWallMs"]!, 1)) / \(f(w["editReportedMs"]!, 1)) ms, \(f(w["editShaped"]!, 0)) paragraph shaped  (target ≤ 15 ms, 1)")
    row("preview --watch 10,000: a save that changes nothing", "\(f(w["unchangedWallMs"]!, 1)) ms to its status, no frame drawn")
}
if let s = results["suite"] {
    row("suite of 8 small cases: default workers / --workers 1", "\(f(s["default"]! * 1000, 0)) / \(f(s["one"]! * 1000, 0)) ms: \(f(s["ratio"]!))×, median of 7 pairs  (target ≤ 0.6×)")
}
if let g = results["growth"], g["table-10000"]! > 0 {
    for (name, label, small, large) in [("table", "one table of N rows", 10_000, 40_000), ("code", "one code block of N lines", 10_000, 40_000),
                                        ("images", "one image referenced N times", 400, 4_000),
                                        ("type", "a type step of N characters", 10_000, 40_000)] {
        let a = g["\(name)-\(small)"]!, b = g["\(name)-\(large)"]!
        row("first frame, \(label): N = \(small) / \(large)", "\(f(a, 2)) / \(f(b, 2)) s: \(f(b / max(a, 1e-9), 1))× for \(large / small)× the input (target: linear)")
    }
}
row("textreel diff, two differing 4000×3000 PNGs, whole process", results["diff"]!["processMps"]! > 0
    ? "\(f(results["diff"]!["processMps"]!, 0)) MP/s  (target ≥ 150)" : "textreel not built (swift build -c release --product textreel)")
let sr = results["script"]!
for count in [1_000, 10_000, 100_000] {
    row("script of \(count) steps: steps/s one line / one per line", "\(f(sr["oneLine-\(count)"]! / 1000, 0))k / \(f(sr["multiLine-\(count)"]! / 1000, 0))k  (error at its end: \(f(sr["errorMs-\(count)"]!, 1)) ms)")
}
let dp = results["drawings-policy"]!, dn = results["drawings-none"]!
row("200 drawings down, up, down: surface draws with policy", "\(f(dp["draws"]!, 0))  (\(f(dp["draws"]! / 200, 1)) per drawing)")
row("200 drawings down, up, down: surface draws without", "\(f(dn["draws"]!, 0))  (\(f(dn["draws"]! / 200, 1)) per drawing)")
row("200 drawings: mean frame time without ÷ with policy", "\(f(dn["mean"]!)) / \(f(dp["mean"]!)) ms  (\(f(dn["mean"]! / dp["mean"]!, 1))×)")
for (name, value) in results["diagrams"].map(DiagramBench.rows) ?? [] { row(name, value) }
if pangoView > 0 {
    row("peer: pango-view whole 1,000-paragraph document", "\(f(pangoView * 1000, 0)) ms  (\(f(pangoView / r1k["firstFrame"]!, 1))× TextReel's first frame)")
} else {
    row("peer: pango-view", "not installed (Debian package pango1.0-tools)")
}
var flat: [String: Double] = ["pangoViewSeconds": pangoView]
for (k, v) in results { for (kk, vv) in v { flat["\(k).\(kk)"] = vv } }
let json = try JSONSerialization.data(withJSONObject: flat, options: [.sortedKeys, .prettyPrinted])
try json.write(to: folder.appendingPathComponent("results.json"), options: .atomic)
print("\nfigures written to Output/bench/results.json")
