import Foundation
import TextReel

/// Drawn diagrams kept on disk by what made them (source, look, mermaid.js, the helper's code,
/// chromium's binary):
/// a document rendered again, or a test run again, starts no browser for diagrams it drew
/// before. Beside the font cache (`diagrams-VERSION/`), else in the temporary folder; each SVG
/// has a key file holding its whole source, compared on reading (the file name is only a hash).
struct DiagramStore {
    let folder: URL
    let name: String
    /// What the key file must hold: the look, the browser, then the source.
    let identity: String

    static func entry(source: String, theme: String, script: URL) -> DiagramStore {
        let identity = "\(theme)\n\(script.lastPathComponent) \(drawing)\n\(browser)\n\(source)"
        return DiagramStore(folder: folder, name: String(StableHash.of(identity), radix: 16), identity: identity)
    }

    private static let folder: URL = {
        let base = FontCache.baseFolder() ?? FileManager.default.temporaryDirectory.appendingPathComponent("textreel-\(getuid())")
        return base.appendingPathComponent("diagrams-\(MermaidDiagrams.version)")
    }()

    /// How the helper asks for a diagram and mends its SVG (`MermaidBrowser.py`, by hash).
    private static let drawing = String(StableHash.of(PythonHelper.helper), radix: 16)

    /// Chromium's binary, by size and time: measuring text is the browser's, so another version
    /// may lay a diagram out otherwise.
    private static let browser: String = {
        let binary = "/usr/lib/chromium/chromium"
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: binary) else { return "chromium" }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "chromium \(size) \(Int64(time))"
    }()

    private var svg: URL { folder.appendingPathComponent(name + ".svg") }
    private var key: URL { folder.appendingPathComponent(name + ".key") }

    /// The diagram drawn before, if its key file holds this identity.
    func read() -> MermaidDiagrams.Drawn? {
        guard let stored = try? String(contentsOf: key, encoding: .utf8),
              let newline = stored.firstIndex(of: "\n"), stored[stored.index(after: newline)...] == identity,
              FileManager.default.fileExists(atPath: svg.path) else { return nil }
        let numbers = stored[..<newline].split(separator: " ").compactMap { Double($0) }
        guard numbers.count == 2 else { return nil }
        return MermaidDiagrams.Drawn(file: svg, size: CGSize(width: numbers[0], height: numbers[1]))
    }

    /// Keeps a diagram drawn now (the SVG before its key, each written whole); its file, or nil
    /// when the folder cannot be written.
    func write(svg text: String, size: CGSize) -> URL? {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(Data(text.utf8), to: svg, durable: false)
            let header = "\(NumberText.text(size.width)) \(NumberText.text(size.height))\n"
            try AtomicFile.write(Data((header + identity).utf8), to: key, durable: false)
            return svg
        } catch {
            return nil
        }
    }
}
