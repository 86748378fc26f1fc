import CPango
import Foundation
import TextReel

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
        /// The blob of a shard; `suite` is the names of all the suite's cases.
        public init(shard: String?, suite: [String]? = nil, results: [CaseResult]) {
            self.shard = shard
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

    /// The results of several blobs, in the order one run over all their cases gives.
    /// The results of the blobs, as one run. A shard or a case given twice is an error (it
    /// would be counted twice); `missing` names the shards of an `I/N` split not given.
    public static func merge(blobs urls: [URL]) throws -> (results: [CaseResult], missing: [String]) {
        var results: [CaseResult] = []
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
        }
        // Shards of one I/N split: the ones not given.
        let counts = Set(shards.keys.compactMap { $0.split(separator: "/").last.flatMap { Int($0) } })
        let missing = counts.count == 1 ? (1...counts.first!).map { "\($0)/\(counts.first!)" }.filter { shards[$0] == nil } : []
        // The same order as one run: cases by folder, then by name (variants).
        return (results.sorted { ($0.folder, $0.name) < ($1.folder, $1.name) }, missing)
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
            var line = "frame \(diff.frame): \(diff.reason)"
            if !diff.regions.isEmpty {
                line += " — at " + diff.regions.prefix(4).map { "(\($0.x),\($0.y) \($0.width)×\($0.height): \($0.what))" }.joined(separator: ", ")
            }
            lines.append(line)
        }
        return lines
    }

    /// A self-contained page (images inlined): expected | actual | diff side by side, a slider
    /// between expected and actual, a filmstrip of each case's golden frames, and the reasons.
    public static func writeHTML(_ results: [CaseResult], to folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw TextReelError(file: folder.path, "this is a file; --report names a folder for index.html")
        }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw TextReelError(file: folder.path, "cannot create the report folder (\((error as NSError).localizedFailureReason ?? "not writable")); expected a writable path")
        }
        // The results beside the page, for `textreel review` and `report --serve`.
        try writeBlob(Blob(shard: nil, results: results), to: folder.appendingPathComponent("results.json"))
        try atomically(Data(page(results, acceptToken: nil).utf8), to: folder.appendingPathComponent("index.html"))
    }

    /// The report page. With `acceptToken` (served by `textreel report --serve`), each failing
    /// frame and case has an accept button, a filter narrows the cases shown, and "accept all
    /// shown" accepts every case left; each accept is a POST carrying the token.
    public static func page(_ results: [CaseResult], acceptToken: String?) -> String {
        var html = """
        <!doctype html><html><head><meta charset="utf-8"><title>TextReel golden report</title><style>
        body{font:14px system-ui,sans-serif;margin:24px;color:#1f2328}h2{margin-top:32px}
        .passed,.recorded{color:#1a7f37}.failed{color:#cf222e}.drift{color:#9a6700}.updated{color:#0969da}
        .row{display:flex;gap:12px;align-items:flex-start}.row figure{margin:0}.row img{max-width:32vw;border:1px solid #d0d7de}
        figcaption{font-size:12px;color:#57606a}.slider{position:relative;display:inline-block;border:1px solid #d0d7de}
        .slider img{display:block;max-width:60vw}.slider .top{position:absolute;top:0;left:0;overflow:hidden;height:100%;border-right:2px solid #cf222e}
        .film{display:flex;gap:6px;overflow-x:auto;padding:6px 0}.film figure{margin:0}.film img{height:90px;border:1px solid #d0d7de}
        .film .bad img{border:2px solid #cf222e}ul{margin:6px 0}button{margin:4px 8px 4px 0}.done{color:#1a7f37}
        </style></head><body><h1>TextReel golden report</h1>
        """
        let failed = results.filter(\.isFailure).count
        html += "<p>\(results.count) case\(results.count == 1 ? "" : "s"): \(results.count - failed) passed, \(failed) failed.</p>"
        if let token = acceptToken {
            html += """
            <p><input id="filter" placeholder="filter cases" oninput="filterCases(this.value)">
            <button id="accept-all" onclick="acceptAllShown()">Accept all shown</button> <span id="status"></span></p>
            <script>
            const token = "\(token)";
            async function accept(caseName, frame, button) {
              const query = "token=" + encodeURIComponent(token) + "&case=" + encodeURIComponent(caseName) + (frame === null ? "" : "&frame=" + frame);
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
                if (button.closest("section").style.display !== "none" && !button.disabled) await accept(button.dataset.case, null, button);
              }
            }
            </script>
            """
        }
        for (k, result) in results.enumerated() {
            html += "<section class=\"case\" data-case=\"\(escape(result.name))\">"
            html += "<h2>\(escape(result.name)) <span class=\"\(result.status.rawValue)\">\(result.status.rawValue)</span></h2>"
            if acceptToken != nil && result.isFailure {
                html += "<button class=\"accept-case\" data-case=\"\(escape(result.name))\" onclick=\"accept(this.dataset.case, null, this)\">Accept case</button>"
            }
            if let first = result.firstDivergingFrame { html += "<p>First diverging frame: \(first)</p>" }
            let reasons = reasons(result)
            if !reasons.isEmpty { html += "<ul>" + reasons.map { "<li>\(escape($0))</li>" }.joined() + "</ul>" }
            for (d, diff) in result.diffs.enumerated() {
                html += "<h3>Frame \(diff.frame)</h3>"
                if acceptToken != nil && diff.actual != nil {
                    html += "<button class=\"accept-frame\" data-case=\"\(escape(result.name))\" data-frame=\"\(diff.frame)\" onclick=\"accept(this.dataset.case, Number(this.dataset.frame), this)\">Accept frame \(diff.frame)</button>"
                }
                html += "<div class=\"row\">"
                for (label, path) in [("expected", diff.expected), ("actual", diff.actual), ("diff", diff.diff)] {
                    if let path { html += "<figure><img src=\"\(dataURI(path))\"><figcaption>\(label)</figcaption></figure>" }
                }
                html += "</div>"
                if let expected = diff.expected, let actual = diff.actual {
                    let id = "s\(k)_\(d)"
                    html += """
                    <p>Slide between expected (left of the line) and actual:</p>
                    <div class="slider"><img src="\(dataURI(actual))"><div class="top" id="\(id)" style="width:50%"><img src="\(dataURI(expected))"></div></div>
                    <br><input type="range" min="0" max="100" value="50" style="width:60vw" oninput="document.getElementById('\(id)').style.width=this.value+'%'">
                    """
                }
            }
            let expected = URL(fileURLWithPath: result.expected ?? result.folder + "/expected")
            if let index = try? JSONDecoder().decode(ExpectedFolder.Index.self, from: Data(contentsOf: expected.appendingPathComponent("index.json"))) {
                let bad = Set(result.diffs.map(\.frame))
                html += "<div class=\"film\">"
                for number in index.frames.keys.compactMap(Int.init).sorted() {
                    let file = expected.appendingPathComponent(index.frames[String(number)]!).path
                    html += "<figure class=\"\(bad.contains(number) ? "bad" : "")\"><img src=\"\(dataURI(file))\"><figcaption>\(number)</figcaption></figure>"
                }
                html += "</div>"
            }
            html += "</section>"
        }
        html += "</body></html>\n"
        return html
    }

    private static func dataURI(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return "data:image/png;base64," + data.base64EncodedString()
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
