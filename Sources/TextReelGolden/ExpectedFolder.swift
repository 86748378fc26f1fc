import Foundation
import Synchronization
import TextReelMarkdown

/// A case's `expected/` folder: golden frames (identical consecutive frames stored once),
/// `index.json` (frame number → file), `layout.json` and `fingerprint.json`. Replaced as a whole
/// by a rename, so an interrupted update never leaves a half-written golden.
struct ExpectedFolder {
    struct Index: Codable {
        /// Frame number (as text) → PNG file name.
        var frames: [String: String]
    }

    let url: URL
    var index: Index
    /// `layout.json` as stored (nil: none); decoded only when a render's differs from it.
    var layoutData: Data?
    var fingerprint: EnvironmentFingerprint?

    /// The structure stored, decoded (a case without `layout.json` has none).
    func layout() throws -> LayoutSnapshot {
        guard let layoutData else { return LayoutSnapshot() }
        do { return try JSONDecoder().decode(LayoutSnapshot.self, from: layoutData) } catch {
            throw TextReelError(file: url.appendingPathComponent("layout.json").path,
                                "the golden layout.json is damaged (not the JSON textreel writes); restore it from version control, or re-record the case with --update all")
        }
    }

    /// nil when the case has no goldens yet.
    static func read(at url: URL) throws -> ExpectedFolder? {
        guard let index = try index(at: url) else { return nil }
        let layout = FileManager.default.contents(atPath: url.appendingPathComponent("layout.json").path)
        let fingerprint = (try? Data(contentsOf: url.appendingPathComponent("fingerprint.json"))).flatMap(decodedFingerprint)
        return ExpectedFolder(url: url, index: index, layoutData: layout, fingerprint: fingerprint)
    }

    /// Fingerprints decoded, by their bytes: a suite's goldens mostly share one, and decoding it
    /// (a table of every font file) for each case was a twentieth of testing a small one.
    private static let fingerprints = Mutex<[Data: EnvironmentFingerprint]>([:])

    private static func decodedFingerprint(_ data: Data) -> EnvironmentFingerprint? {
        if let known = fingerprints.withLock({ $0[data] }) { return known }
        guard let decoded = try? JSONDecoder().decode(EnvironmentFingerprint.self, from: data) else { return nil }
        fingerprints.withLock { $0[data] = decoded }
        return decoded
    }

    /// Only the folder's `index.json` (what finding stray images needs: decoding every case's
    /// fingerprint too was a quarter of the suite process's own time); nil when there is none.
    static func index(at url: URL) throws -> Index? {
        let file = url.appendingPathComponent("index.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do { return try JSONDecoder().decode(Index.self, from: Data(contentsOf: file)) } catch {
            let what = error is DecodingError ? "not the JSON textreel writes" : (error as NSError).localizedFailureReason ?? "unreadable"
            throw TextReelError(file: file.path, "the golden index.json is damaged (\(what)); restore it from version control, or re-record the case with --update all")
        }
    }

    func imageURL(frame: Int) -> URL? {
        index.frames[String(frame)].map { url.appendingPathComponent($0) }
    }

    /// Writes `rendered` as the new goldens in `final` (a case's `expected/`, or a variant's
    /// folder in it), atomically.
    static func write(_ rendered: GoldenCase.Rendered, to final: URL) throws {
        let fm = FileManager.default
        let parent = final.deletingLastPathComponent(), name = final.lastPathComponent
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".\(name).new.\(getpid())")
        let old = parent.appendingPathComponent(".\(name).old.\(getpid())")
        try? fm.removeItem(at: staging)
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        do {
            var index = Index(frames: [:])
            var previous: (Data, String)?
            for number in rendered.frames.keys.sorted() {
                // The writer is deterministic: equal bytes are equal pixels.
                let png = rendered.frames[number]!.png
                if let previous, previous.0 == png {
                    index.frames[String(number)] = previous.1
                    continue
                }
                let name = String(format: "frame-%05d.png", number)
                try AtomicFile.write(png, to: staging.appendingPathComponent(name))
                index.frames[String(number)] = name
                previous = (png, name)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(index).write(to: staging.appendingPathComponent("index.json"))
            try rendered.layout.json().write(to: staging.appendingPathComponent("layout.json"))
            try encoder.encode(rendered.fingerprint).write(to: staging.appendingPathComponent("fingerprint.json"))
            if fm.fileExists(atPath: final.path) {
                // Folders inside (the goldens of other looks, from `test --theme …`) stay.
                for name in (try? fm.contentsOfDirectory(atPath: final.path)) ?? [] where !name.hasPrefix(".") {
                    var isDirectory: ObjCBool = false
                    if fm.fileExists(atPath: final.appendingPathComponent(name).path, isDirectory: &isDirectory), isDirectory.boolValue {
                        try fm.moveItem(at: final.appendingPathComponent(name), to: staging.appendingPathComponent(name))
                    }
                }
                try fm.moveItem(at: final, to: old)
            }
            try fm.moveItem(at: staging, to: final)
            try? fm.removeItem(at: old)
        } catch {
            try? fm.removeItem(at: staging)
            if !fm.fileExists(atPath: final.path), fm.fileExists(atPath: old.path) { try? fm.moveItem(at: old, to: final) }
            let kept = fm.fileExists(atPath: final.path) ? "the old ones are kept" : "none were there before, and none are left half-written"
            throw TextReelError(file: final.path, "cannot write the goldens (\((error as? TextReelError)?.message ?? TextReelError.reason(error))); \(kept)")
        }
    }

    /// Adds goldens for frames that have none (deleted ones, recorded by update mode missing),
    /// leaving every other golden as it is; files and index written atomically.
    static func add(_ frames: [Int: Data], to url: URL) throws {
        let indexURL = url.appendingPathComponent("index.json")
        var index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: indexURL))
        // Names other frames still use (a shared golden of identical frames) are not reused.
        let taken = Set(index.frames.filter { frames[Int($0.key) ?? -1] == nil }.values)
        for (number, png) in frames.sorted(by: { $0.key < $1.key }) {
            let plain = String(format: "frame-%05d.png", number)
            let name = taken.contains(plain) ? String(format: "frame-%05d.added.png", number) : plain
            try AtomicFile.write(png, to: url.appendingPathComponent(name))
            index.frames[String(number)] = name
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(encoder.encode(index), to: indexURL)
    }
}
