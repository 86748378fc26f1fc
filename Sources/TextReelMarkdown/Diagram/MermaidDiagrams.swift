import Foundation
import Synchronization
import TextReel

/// ` ```mermaid ` blocks drawn as GitHub draws them: by mermaid.js itself (11.16.0, from a pinned
/// PyPI wheel `make setup` fetches), run by the helper process in Debian's headless chromium kept
/// warm for the rest of the render (`MermaidBrowser.py`), its SVG drawn by librsvg. Compared
/// beside mermaid.js on eight kinds of diagram: renderers re-written in Rust (mmdr, merman) are
/// 15 ms a diagram but draw their own layouts and looks; mermaid.js in an embedded QuickJS
/// (mermaidx) is the real one at 1 to 10 s a diagram. Chromium costs about 1.5 s to start and
/// 20 to 100 ms a diagram, and gives the same bytes run after run once the diagram's id is fixed.
/// Drawn when its paragraph is first laid out, once per source and look in a process, and kept on
/// disk by source beside the font cache.
enum MermaidDiagrams {
    static let version = "11.16.0"

    /// mermaid.js: `TEXTREEL_MERMAID_JS`, else beside an installed binary
    /// (`share/textreel/mermaid-VERSION.min.js`), else where `make setup` put it in this checkout.
    static let script: URL? = {
        let name = "mermaid-\(version).min.js"
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["TEXTREEL_MERMAID_JS"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/textreel/\(name)"))
        }
        // Sources/TextReelMarkdown/Diagram/ → the checkout's root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/vendor/\(name)"))
        return candidates.first { FileManager.default.isReadableFile(atPath: $0.path) }
    }()

    static let chromium = "/usr/bin/chromium"

    /// A fence's language when it is a diagram's.
    static func language(ofInfo info: String) -> String? {
        SyntaxHighlighter.language(ofInfo: info) == "mermaid" ? "mermaid" : nil
    }

    /// The longest source drawn (mermaid.js's own `maxTextSize`).
    static let maximumLength = 50_000

    struct Drawn: Sendable { var file: URL; var size: CGSize }
    struct Problem: Error {
        var reason: String
        /// A failure of the helper's (late, gone), not of the diagram: worth asking again.
        var isTheHelpers = false
    }

    /// What each source came to in each look, in this process: a diagram mermaid refuses is not
    /// asked for again; one the helper failed on (late, gone) is.
    private static let drawn = Mutex<[String: Result<Drawn, Problem>]>([:])

    /// How many diagrams were drawn (or read from disk) in this process: a test counts what
    /// laziness saves.
    static var drawings: Int { counter.withLock { $0 } }
    private static let counter = Mutex(0)

    /// `source` drawn in `theme` ("default" or "dark"), or why it cannot be.
    static func draw(_ source: String, theme: String) -> Result<Drawn, Problem> {
        let key = theme + "\n" + source
        if let known = drawn.withLock({ $0[key] }) { return known }
        counter.withLock { $0 += 1 }
        let result = drawUncached(source, theme: theme)
        if case .failure(let problem) = result, problem.isTheHelpers { return result }
        drawn.withLock { $0[key] = result }
        return result
    }

    private static func drawUncached(_ source: String, theme: String) -> Result<Drawn, Problem> {
        if source.utf8.count > maximumLength {
            return .failure(Problem(reason: "a diagram of \(source.utf8.count) bytes, more than \(maximumLength), is not drawn"))
        }
        guard let script, FileManager.default.isExecutableFile(atPath: chromium) else {
            return .failure(Problem(reason: "mermaid.js and chromium are not installed (make setup installs them)"))
        }
        let entry = DiagramStore.entry(source: source, theme: theme, script: script)
        if let stored = entry.read() { return .success(stored) }
        guard let reply = PythonHelper.shared.exchange(["diagram": source, "theme": theme, "script": script.path],
                                                       about: "mermaid diagram '\(source.prefix(40))'") else {
            return .failure(Problem(reason: "the helper process did not draw it", isTheHelpers: true))
        }
        guard reply["ok"] as? Bool == true, let svg = reply["svg"] as? String,
              let width = reply["width"] as? Double, let height = reply["height"] as? Double else {
            return .failure(Problem(reason: (reply["error"] as? String) ?? "mermaid drew nothing"))
        }
        let size = CGSize(width: width.rounded(.up), height: height.rounded(.up))
        guard let file = entry.write(svg: svg, size: size) else {
            return .failure(Problem(reason: "the diagram could not be kept in \(entry.folder.path)"))
        }
        return .success(Drawn(file: file, size: size))
    }

    /// A diagram attachment drawn, as the diagram kind's `prepare` (its paragraph's first
    /// layout); one that cannot be drawn shows its source under the reason (a warning in the pass).
    @Sendable static func prepared(_ pending: TextAttachment) -> TextAttachment {
        guard pending.parameters[DiagramAttachment.svgKey] == nil else { return pending }
        var parameters = pending.parameters
        switch draw(pending.altText, theme: parameters[DiagramAttachment.themeKey] ?? "default") {
        case .success(let drawn):
            parameters[DiagramAttachment.svgKey] = drawn.file.path
            return pending.with(size: drawn.size, parameters: parameters)
        case .failure(let problem):
            let reason = "mermaid diagram: \(problem.reason); drawn as its source"
            return pending.with(size: DiagramAttachment.sourceSize(of: pending.altText, reason: reason), parameters: parameters, problem: reason)
        }
    }
}

extension AttachmentKinds {
    /// These kinds with diagrams drawn by `MermaidDiagrams` when laid out (unless the diagram
    /// kind has a `prepare` of its own, or there is none).
    func drawingDiagrams() -> AttachmentKinds {
        var kinds = self
        if kinds.kinds["diagram"]?.prepare == nil { kinds.kinds["diagram"]?.prepare = MermaidDiagrams.prepared }
        return kinds
    }
}
