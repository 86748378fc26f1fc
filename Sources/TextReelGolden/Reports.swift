import CPango
import Foundation
import TextReelMarkdown

/// Reports of a golden run: a self-contained HTML page, JUnit XML and a JSON summary; and the
/// blob a shard writes so that `merge-reports` makes the reports one run would have made.
public enum Reports {
    /// What one shard ran: its results in case order (images referenced by path).
    public struct Blob: Codable {
        /// The blob format's version; `merge(blobs:)` refuses any other.
        public var format = "textreel-blob-1"
        /// The shard ("2/4"; nil: the whole suite).
        public var shard: String?
        /// Which suite the shard was cut from: a hash of the names of all its cases, before
        /// sharding. Blobs of different suites never merge.
        public var suite: String?
        /// The shard's results, in case order.
        public var results: [CaseResult]
        /// The suite folders the run was given (real paths): accepting from the report writes
        /// only inside them (`GoldenWriteScope`). A report without them accepts nothing.
        public var roots: [String]?
        /// The blob of a shard; `suite` is the names of all the suite's cases.
        public init(shard: String?, suite: [String]? = nil, scope: GoldenWriteScope?, results: [CaseResult]) {
            self.shard = shard
            self.roots = scope?.roots
            self.suite = suite.map { String(StableHash.of($0.joined(separator: "\n")), radix: 16) + " (\($0.count) cases)" }
            self.results = results
        }
    }

    /// Writes `blob` as JSON to `url`, atomically.
    public static func writeBlob(_ blob: Blob, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try atomically(encoder.encode(blob), to: url)
    }

    /// The results of several blobs, as one run over all their cases.
    public struct Merged {
        /// In the order one run gives.
        public var results: [CaseResult]
        /// The shards of an `I/N` split not given.
        public var missing: [String]
        /// Where accepting may write: the suites the blobs were made from.
        public var scope: GoldenWriteScope
    }

    /// The results of the blobs, as one run. A shard or a case given twice is an error (it
    /// would be counted twice).
    public static func merge(blobs urls: [URL]) throws -> Merged {
        var results: [CaseResult] = []
        var roots: [String] = []
        var shards: [String: String] = [:], cases: [String: String] = [:]
        var suite: (id: String, file: String)?
        for url in urls {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw TextReelError(file: url.path, "no such blob; expected a file written by textreel test --blob")
            }
            guard let blob = try? JSONDecoder().decode(Blob.self, from: data), blob.format == "textreel-blob-1" else {
                throw TextReelError(file: url.path, "not a blob textreel test --blob wrote (or from another version)")
            }
            if let id = blob.suite {
                if let suite, suite.id != id {
                    throw TextReelError(file: url.path, "a blob of another suite (\(id), not \(suite.id) as \(suite.file)); merge the blobs of one run")
                }
                suite = suite ?? (id, url.path)
            }
            if let shard = blob.shard {
                if let count = shard.split(separator: "/").last, let other = shards.keys.first(where: { $0.split(separator: "/").last != count }) {
                    throw TextReelError(file: url.path, "shard \(shard) is of another split than shard \(other) (\(shards[other]!)); merge the blobs of one run")
                }
                if let other = shards.updateValue(url.path, forKey: shard) {
                    throw TextReelError(file: url.path, "shard \(shard) is given twice (also \(other)); give each shard's blob once")
                }
            }
            for result in blob.results {
                if let other = cases.updateValue(url.path, forKey: "\(result.folder) \(result.name)") {
                    throw TextReelError(file: url.path, "case \(result.name) is in two blobs (also \(other)); give each shard's blob once")
                }
            }
            results += blob.results
            roots += (blob.roots ?? []).filter { !roots.contains($0) }
        }
        // Shards of one I/N split: the ones not given.
        let counts = Set(shards.keys.compactMap { $0.split(separator: "/").last.flatMap { Int($0) } })
        let missing = counts.count == 1 ? (1...counts.first!).map { "\($0)/\(counts.first!)" }.filter { shards[$0] == nil } : []
        // The same order as one run: cases by folder, then by name (variants).
        return Merged(results: results.sorted { ($0.folder, $0.name) < ($1.folder, $1.name) }, missing: missing,
                      scope: GoldenWriteScope(suites: roots))
    }

    /// Writes the JSON summary to `url`, atomically: passed and failed counts and every result.
    public static func writeJSON(_ results: [CaseResult], to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let summary = Summary(passed: results.filter { !$0.isFailure }.count, failed: results.filter(\.isFailure).count, cases: results)
        try atomically(encoder.encode(summary), to: url)
    }

    struct Summary: Encodable {
        var passed: Int
        var failed: Int
        var cases: [CaseResult]
    }

    /// JUnit XML, with the image paths as attachments (the `[[ATTACHMENT|path]]` convention).
    public static func writeJUnit(_ results: [CaseResult], to url: URL) throws {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let failures = results.filter(\.isFailure).count
        let time = results.reduce(0) { $0 + $1.seconds }
        xml += #"<testsuite name="textreel golden" tests="\#(results.count)" failures="\#(failures)" time="\#(String(format: "%.3f", time))">"# + "\n"
        for result in results {
            xml += #"  <testcase classname="golden" name="\#(escape(result.name))" time="\#(String(format: "%.3f", result.seconds))">"#
            if result.isFailure {
                let message = result.status == .drift ? "environment drift" : "regression"
                xml += "\n" + #"    <failure message="\#(message)">\#(escape(reasons(result).joined(separator: "\n")))</failure>"#
                let paths = result.diffs.flatMap { [$0.expected, $0.actual, $0.diff].compactMap { $0 } }
                xml += "\n    <system-out>" + escape(paths.map { "[[ATTACHMENT|\($0)]]" }.joined(separator: "\n")) + "</system-out>\n  "
            }
            xml += "</testcase>\n"
        }
        xml += "</testsuite>\n"
        try atomically(Data(xml.utf8), to: url)
    }

    /// What a recording wrote, in words: "frame 3 (frame-00003.png)", "frames 1, 2 and 5", "no frame".
    public static func framesWritten(_ result: CaseResult) -> String {
        let frames = result.recordedFrames
        switch frames.count {
        case 0: return "no frame"
        case 1: return "frame \(frames[0]) (\(String(format: "frame-%05d.png", frames[0])))"
        case 2...6: return "frames " + frames.dropLast().map(String.init).joined(separator: ", ") + " and \(frames.last!)"
        default: return "\(frames.count) frames (\(frames.first!) to \(frames.last!))"
        }
    }

    /// The reasons a case failed, in words.
    public static func reasons(_ result: CaseResult) -> [String] {
        var lines = result.structure
        if result.isFailure && !result.drift.isEmpty { lines.append("environment drift: " + result.drift.joined(separator: "; ")) }
        for diff in result.diffs {
            var line = "frame \(diff.frame)\(diff.snapshot.map { " (snapshot '\($0)')" } ?? ""): \(diff.reason)"
            if !diff.regions.isEmpty {
                line += " — at " + diff.regions.prefix(4).map { "(\($0.x),\($0.y) \($0.width)×\($0.height): \($0.what))" }.joined(separator: ", ")
            }
            lines.append(line)
        }
        return lines
    }

    /// A self-contained page (images inlined): expected | actual | diff side by side, a slider
    /// between expected and actual, a filmstrip of each case's golden frames, and the reasons.
    /// `scope` is where the report may accept into (recorded in its results.json) and what
    /// images it may show: only PNGs inside their own case's folder are linked beside the page.
    public static func writeHTML(_ results: [CaseResult], scope: GoldenWriteScope, to folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw TextReelError(file: folder.path, "this is a file; --report names a folder for index.html")
        }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw TextReelError(file: folder.path, "cannot create the report folder (\((error as NSError).localizedFailureReason ?? "not writable")); expected a writable path")
        }
        // The results beside the page, for `textreel review` and `report --serve`.
        try writeBlob(Blob(shard: nil, scope: scope, results: results), to: folder.appendingPathComponent("results.json"))
        try writeImages(results, scope: scope, to: folder.appendingPathComponent("images"))
        try atomically(Data(page(results, acceptToken: nil).utf8), to: folder.appendingPathComponent("index.html"))
    }

    /// A report image's file name, by what it shows: case `k`'s (its place in the report) frame
    /// and kind (expected, actual, diff, golden for the filmstrip).
    static func imageName(case k: Int, frame: Int, _ label: String) -> String { "\(k)-\(String(format: "%05d", frame))-\(label).png" }

    /// Every image a report page shows, as `images/<name>` beside it: hard links where the
    /// file system allows (nothing copied), else copies. The page stays small and loads them
    /// lazily; a 300-frame case no longer makes a 57 MB page of base64.
    static func writeImages(_ results: [CaseResult], scope: GoldenWriteScope, to folder: URL) throws {
        let fm = FileManager.default
        try? fm.removeItem(at: folder)
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        for (k, path, frame, label) in images(of: results) {
            let target = folder.appendingPathComponent(imageName(case: k, frame: frame, label))
            guard !fm.fileExists(atPath: target.path), fm.fileExists(atPath: path) else { continue }
            guard scope.mayShow(path, of: results[k]) else {
                FileHandle.standardError.write(Data("textreel: warning: the report leaves out \(path): not a PNG inside case \(results[k].name)'s folder in the suite\n".utf8))
                continue
            }
            if link(path, target.path) != 0 { try fm.copyItem(atPath: path, toPath: target.path) }
        }
        // Each case's chart over its frames, failing frames marked.
        for (k, result) in results.enumerated() {
            guard let chart = result.chart else { continue }
            try AtomicFile.write(Data(chart.svg(failing: Set(result.diffs.map(\.frame))).utf8), to: folder.appendingPathComponent("\(k)-chart.svg"))
        }
        // Each failing case's first diverging frame as an animated PNG: expected, then actual,
        // a second each, so a glance shows what moved.
        for (k, result) in results.enumerated() {
            guard let diff = flipped(result), scope.mayShow(diff.expected!, of: result), scope.mayShow(diff.actual!, of: result),
                  let expected = try? RGBAImage(contentsOf: URL(fileURLWithPath: diff.expected!)),
                  let actual = try? RGBAImage(contentsOf: URL(fileURLWithPath: diff.actual!)),
                  expected.width == actual.width, expected.height == actual.height else { continue }
            let animation = AnimatedPNG(width: expected.width, height: expected.height, fps: 1)
            try animation.add(rgba: expected.pixels, width: expected.width, height: expected.height)
            try animation.add(rgba: actual.pixels, width: actual.width, height: actual.height)
            try AtomicFile.write(animation.data(), to: folder.appendingPathComponent(imageName(case: k, frame: diff.frame, "flip")))
        }
    }

    /// The frame a case's report animates: its first with both a golden and an actual image.
    static func flipped(_ result: CaseResult) -> FrameDiff? { result.diffs.first { $0.expected != nil && $0.actual != nil } }

    /// The images of each case: its failing frames' expected, actual and diff images, and its goldens for the filmstrip.
    static func images(of results: [CaseResult]) -> [(case: Int, path: String, frame: Int, label: String)] {
        var out: [(Int, String, Int, String)] = []
        for (k, result) in results.enumerated() {
            for diff in result.diffs {
                for (label, path) in [("expected", diff.expected), ("actual", diff.actual), ("diff", diff.diff)] {
                    if let path { out.append((k, path, diff.frame, label)) }
                }
            }
            for (number, path) in filmstrip(result) { out.append((k, path, number, "golden")) }
        }
        return out
    }

    /// A case's golden frames, in order, from its index.
    static func filmstrip(_ result: CaseResult) -> [(frame: Int, path: String)] {
        let expected = URL(fileURLWithPath: result.expected ?? result.folder + "/expected")
        guard let index = try? JSONDecoder().decode(ExpectedFolder.Index.self, from: Data(contentsOf: expected.appendingPathComponent("index.json"))) else { return [] }
        return index.frames.keys.compactMap(Int.init).sorted().map { ($0, expected.appendingPathComponent(index.frames[String($0)]!).path) }
    }

    /// The report page. With `acceptToken` (served by `textreel report --serve`), each failing
    /// frame and case has an accept button, a filter narrows the cases shown, and "accept all
    /// shown" accepts every case left; each accept is a POST carrying the token.
    public static func page(_ results: [CaseResult], acceptToken: String?) -> String {
        var html = """
        <!doctype html><html><head><meta charset="utf-8"><title>TextReel golden report</title><style>
        body{font:14px system-ui,sans-serif;margin:24px;color:#1f2328}h2{margin-top:32px}
        .passed,.recorded{color:#1a7f37}.failed{color:#cf222e}.drift{color:#9a6700}.updated{color:#0969da}
        .row{display:flex;gap:12px;align-items:flex-start}.row figure{margin:0}.row img{max-width:32vw;height:auto;border:1px solid #d0d7de}
        figcaption{font-size:12px;color:#57606a}.slider{position:relative;display:inline-block;border:1px solid #d0d7de}
        .slider img{display:block;max-width:60vw;height:auto}.flip{max-width:60vw;height:auto;border:1px solid #d0d7de}.chart{display:block;max-width:100%;height:auto;margin:8px 0}.slider .top{position:absolute;top:0;left:0;overflow:hidden;height:100%;border-right:2px solid #cf222e}
        .film{display:flex;gap:6px;overflow-x:auto;padding:6px 0}.film img{height:90px;border:1px solid #d0d7de}
        .film img.bad{border:2px solid #cf222e}ul{margin:6px 0}button{margin:4px 8px 4px 0}.done{color:#1a7f37}
        </style><script>
        function reveal(details) {
          if (!details.open) return;
          for (const img of details.querySelectorAll("img[data-src]")) { img.loading = "lazy"; img.src = img.dataset.src; img.removeAttribute("data-src"); }
        }
        </script></head><body><h1>TextReel golden report</h1>
        """
        let failed = results.filter(\.isFailure).count
        html += "<p>\(results.count) case\(results.count == 1 ? "" : "s"): \(results.count - failed) passed, \(failed) failed.</p>"
        if let token = acceptToken {
            html += """
            <p><input id="filter" placeholder="filter cases" oninput="filterCases(this.value)">
            <button id="accept-all" onclick="acceptAllShown()">Accept all shown</button> <span id="status"></span></p>
            <script>
            const token = "\(token)";
            async function accept(button, frame) {
              const query = "token=" + encodeURIComponent(token) + "&case=" + encodeURIComponent(button.dataset.case) +
                "&folder=" + encodeURIComponent(button.dataset.folder) + (frame === null ? "" : "&frame=" + frame);
              const response = await fetch("/accept?" + query, {method: "POST"});
              const text = await response.text();
              document.getElementById("status").textContent = text;
              if (response.ok && button) { button.disabled = true; button.textContent = "accepted"; button.classList.add("done"); }
              return response.ok;
            }
            function filterCases(text) {
              for (const section of document.querySelectorAll("section.case")) {
                section.style.display = section.dataset.case.toLowerCase().includes(text.toLowerCase()) ? "" : "none";
              }
            }
            async function acceptAllShown() {
              for (const button of document.querySelectorAll("section.case button.accept-case")) {
                if (button.closest("section").style.display !== "none" && !button.disabled) await accept(button, null);
              }
            }
            </script>
            """
        }
        for (k, result) in results.enumerated() {
            html += "<section class=\"case\" data-case=\"\(escape(result.name))\">"
            html += "<h2>\(escape(result.name)) <span class=\"\(result.status.rawValue)\">\(result.status.rawValue)</span></h2>"
            if acceptToken != nil && result.isFailure {
                html += "<button class=\"accept-case\" data-case=\"\(escape(result.name))\" data-folder=\"\(escape(result.folder))\" onclick=\"accept(this, null)\">Accept case</button>"
            }
            if let first = result.firstDivergingFrame { html += "<p>First diverging frame: \(first)</p>" }
            if result.chart != nil {
                html += "<img class=\"chart\" loading=\"lazy\" src=\"images/\(k)-chart.svg\" width=\"720\" height=\"\(Int(RunChart.height))\" alt=\"the run over its frames\">"
            }
            // Reasons and frames in a screenful each; every reason is in --json and --junit.
            let reasons = reasons(result), shownReasons = 40, shownFrames = 60
            if !reasons.isEmpty {
                html += "<ul>" + reasons.prefix(shownReasons).map { "<li>\(escape($0))</li>" }.joined()
                    + (reasons.count > shownReasons ? "<li>… and \(reasons.count - shownReasons) more</li>" : "") + "</ul>"
            }
            func image(_ frame: Int, _ label: String) -> String { "images/" + imageName(case: k, frame: frame, label) }
            func row(_ diff: FrameDiff, deferred: Bool) -> String {
                let source = deferred ? "data-src" : "loading=\"lazy\" src"
                var row = "<h3>Frame \(diff.frame)</h3>"
                if acceptToken != nil && diff.actual != nil {
                    row += "<button class=\"accept-frame\" data-case=\"\(escape(result.name))\" data-folder=\"\(escape(result.folder))\" data-frame=\"\(diff.frame)\" onclick=\"accept(this, Number(this.dataset.frame))\">Accept frame \(diff.frame)</button>"
                }
                row += "<div class=\"row\">"
                for (label, path) in [("expected", diff.expected), ("actual", diff.actual), ("diff", diff.diff)] where path != nil {
                    row += "<figure><img \(source)=\"\(image(diff.frame, label))\"\(size(path!))><figcaption>\(label)</figcaption></figure>"
                }
                return row + "</div>"
            }
            // The first failing frame is shown; the others, and the filmstrip, wait in closed
            // <details> whose images get their `src` only when opened (Chromium fetches the
            // images of a closed <details>, lazy or not: 3,000 of them took 5 s), so a report of
            // thousands of frames opens as fast as one of a few.
            if let first = result.diffs.first { html += row(first, deferred: false) }
            if result.diffs.count > 1 {
                html += "<details ontoggle=\"reveal(this)\"><summary>\(result.diffs.count - 1) more failing frame\(result.diffs.count == 2 ? "" : "s")</summary>"
                    + result.diffs.dropFirst().prefix(shownFrames).map { row($0, deferred: true) }.joined()
                    + (result.diffs.count - 1 > shownFrames ? "<p>… and \(result.diffs.count - 1 - shownFrames) more (textreel review shows each)</p>" : "")
                    + "</details>"
            }
            // One slider per case, on its first diverging frame, and the two as an animation.
            if let diff = flipped(result) {
                let id = "s\(k)"
                html += """
                <p>Expected and actual in turn, a second each, frame \(diff.frame):</p>
                <img class="flip" loading="lazy" src="\(image(diff.frame, "flip"))"\(size(diff.actual!))>
                <p>Slide between expected (left of the line) and actual, frame \(diff.frame):</p>
                <div class="slider"><img loading="lazy" src="\(image(diff.frame, "actual"))"\(size(diff.actual!))><div class="top" id="\(id)" style="width:50%"><img loading="lazy" src="\(image(diff.frame, "expected"))"></div></div>
                <br><input type="range" min="0" max="100" value="50" style="width:60vw" oninput="document.getElementById('\(id)').style.width=this.value+'%'">
                """
            }
            let bad = Set(result.diffs.map(\.frame))
            let film = filmstrip(result)
            if !film.isEmpty {
                html += "<details ontoggle=\"reveal(this)\"><summary>Filmstrip: the \(film.count) golden frames (failing ones outlined)</summary><div class=\"film\">" + film.map { number, _ in
                    "<img loading=\"lazy\" data-src=\"\(image(number, "golden"))\" title=\"\(number)\"\(bad.contains(number) ? " class=\"bad\"" : "")>"
                }.joined() + "</div></details>"
            }
            html += "</section>"
        }
        html += "</body></html>\n"
        return html
    }

    /// An image's `width` and `height` attributes from its PNG header, so the page does not move
    /// as images arrive (a click aimed at a button would land elsewhere); empty if unreadable.
    static func size(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 64), let size = PNGDecoder.size(of: header) else { return "" }
        return " width=\"\(size.width)\" height=\"\(size.height)\""
    }

    /// Text for HTML and XML: GLib's escaping (& < > ' ").
    static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    private static func atomically(_ data: Data, to url: URL) throws {
        try AtomicFile.write(data, to: url)
    }
}
