import CMark
import Foundation
import TextReelMarkdown

/// `make bench-peers`: the same generated documents through TextReel and through what people use
/// instead — headless Chromium (its one-shot screenshot, and a 300-frame scroll over the DevTools
/// protocol) and pango-view — run alternately, TextReel then the peer, pair by pair, so that a
/// machine that slows down slows both. Prints medians and the ratio of each pair's times.
enum PeersBench {
    /// Seconds for pango-view to lay out and draw the whole 1,000-paragraph document (median of
    /// 3); 0 where it is not installed.
    static func pangoView(in folder: URL) throws -> Double {
        guard let path = ["/usr/bin/pango-view", "/usr/local/bin/pango-view"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return 0 }
        let text = try BenchDocument.plainTextFile(paragraphs: 1000, in: folder)
        return Measure.median(try (0..<3).map { _ in
            try run([path, "--no-display", "-q", "--width=736", "--font=Noto Sans 15", "--output=\(folder.path)/pango-view.png", text.path]).seconds
        })
    }

    /// A finished child: its wall time, its own peak resident size, and the largest of any
    /// process this benchmark has waited for so far, descendants included (a browser's
    /// renderer is its child, not ours: only this count reaches it).
    struct Run { var seconds: Double; var peakMB: Double; var largestDescendantMB: Double; var status: Int32 }

    /// Runs `arguments` as a process (no shell), output discarded.
    static func run(_ arguments: [String]) throws -> Run {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
            throw TextReelError("cannot start \(arguments[0])")
        }
        var status: Int32 = 0, usage = rusage()
        wait4(pid, &status, 0, &usage)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var children = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &children)
        return Run(seconds: seconds, peakMB: Double(max(usage.ru_maxrss, 0)) / 1024,
                   largestDescendantMB: Double(max(children.ru_maxrss, 0)) / 1024, status: status)
    }

    /// The document as HTML for Chromium, by cmark-gfm (the library TextReel reads Markdown with).
    static func html(_ markdown: URL, to html: URL) throws {
        let text = try String(contentsOf: markdown, encoding: .utf8)
        guard let body = cmark_markdown_to_html(text, text.utf8.count, CMARK_OPT_DEFAULT) else { throw TextReelError("cmark-gfm failed") }
        defer { free(body) }
        let page = """
        <!doctype html><html><head><meta charset="utf-8"><style>
        body{margin:24px 32px;font:15px/1.3 "Noto Sans","DejaVu Sans",sans-serif;color:#1f2328;background:#fff}
        </style></head><body>\(String(cString: body))</body></html>
        """
        try Data(page.utf8).write(to: html)
    }

    struct Pair { var name: String; var a: [Double] = []; var b: [Double] = []; var aPeak: [Double] = []; var bPeak: [Double] = [] }

    static func main(folder: URL, textreel: String, pairs: Int) throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TextReelError("bench-peers needs Chromium (make setup installs it)")
        }
        let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let pangoView = ["/usr/bin/pango-view", "/usr/local/bin/pango-view"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var documents: [Int: (md: URL, html: URL, txt: URL)] = [:]
        for count in [1_000, 10_000] {
            let md = try BenchDocument.markdownFile(paragraphs: count, in: folder)
            let html = folder.appendingPathComponent("doc-\(count).html")
            try self.html(md, to: html)
            documents[count] = (md, html, try BenchDocument.plainTextFile(paragraphs: count, in: folder))
        }
        let script = folder.appendingPathComponent("peers-scroll.json5")
        try Data("{fps: 60, viewport: {width: 800, height: 600}, steps: [{wait: 0}, {scroll: {by: 7176, duration: 4.98, curve: \"linear\"}}]}".utf8).write(to: script)
        let out = folder.appendingPathComponent("peers")
        var rows: [Pair] = []
        /// `tree`: the peer runs processes of its own (Chromium's renderers), measured as the
        /// largest process waited for so far, which its own runs dominate.
        func pair(_ name: String, _ a: [String], _ b: [String], tree: Bool = true) throws {
            var row = Pair(name: name)
            _ = try run(a); _ = try run(b)   // warm-up: the page cache, fontconfig's cache
            for _ in 0..<pairs {
                let x = try run(a), y = try run(b)
                // TextReel is one process; the peer's largest process is the largest seen so far
                // (TextReel's runs are smaller), which includes its renderer processes.
                row.a.append(x.seconds); row.b.append(y.seconds); row.aPeak.append(x.peakMB); row.bPeak.append(tree ? max(y.peakMB, y.largestDescendantMB) : y.peakMB)
            }
            rows.append(row)
        }
        for count in [1_000, 10_000] {
            let doc = documents[count]!
            try pair("first frame, \(count) paragraphs: TextReel / Chromium --screenshot",
                     [textreel, "render", doc.md.path, "--out", out.appendingPathComponent("t").path, "--quiet"],
                     [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=800,600",
                      "--user-data-dir=\(folder.path)/peer-profile", "--screenshot=\(out.path)/chromium.png", doc.html.absoluteString])
        }
        if let node {
            let doc = documents[10_000]!
            try pair("300-frame scroll of 10,000 paragraphs, PNGs written: TextReel / Chromium over DevTools",
                     [textreel, "render", doc.md.path, "--script", script.path, "--out", out.appendingPathComponent("s").path, "--quiet"],
                     [node, "--experimental-websocket", "Tests/Browser/scroll.mjs", chromium, doc.html.absoluteString, "300", "24",
                      out.appendingPathComponent("c").path])
        }
        if let pangoView {
            let doc = documents[1_000]!
            try pair("first frame, 1,000 paragraphs: TextReel / pango-view (the whole text, one image)",
                     [textreel, "render", doc.md.path, "--out", out.appendingPathComponent("t").path, "--quiet"],
                     [pangoView, "--no-display", "-q", "--width=736", "--font=Noto Sans 15", "--output=\(out.path)/pango-view.png", doc.txt.path], tree: false)
        }
        print("TextReel against its peers — 800 × 600, whole processes, \(pairs) alternating pairs after a warm-up; medians")
        func f(_ x: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", x) }
        var json: [String: [String: Double]] = [:]
        for row in rows {
            let ratios = zip(row.a, row.b).map { $1 / $0 }
            print(row.name)
            print("    \(f(Measure.median(row.a) * 1000, 0)) ms against \(f(Measure.median(row.b) * 1000, 0)) ms: the peer takes \(f(Measure.median(ratios), 1))× as long "
                  + "(pairs \(f(ratios.min() ?? 0, 1))–\(f(ratios.max() ?? 0, 1))×); peak memory \(f(Measure.median(row.aPeak), 0)) MB against \(f(Measure.median(row.bPeak), 0)) MB (largest process)")
            json[row.name] = ["textreel": Measure.median(row.a), "peer": Measure.median(row.b), "ratio": Measure.median(ratios),
                              "textreelPeakMB": Measure.median(row.aPeak), "peerPeakMB": Measure.median(row.bPeak)]
        }
        print("targets: ≥ 60× Chromium on the scroll, ≥ 35× on the first frame of 1,000 paragraphs")
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .prettyPrinted]).write(to: folder.appendingPathComponent("peers.json"))
        print("figures written to Output/bench/peers.json")
    }
}
