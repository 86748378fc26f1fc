import Foundation
import TextReelMarkdown

/// Where accepting may write: the goldens of the suites a run was made from, from the actual
/// images that run wrote. A report folder is an artifact people download from CI and open
/// locally, so its `results.json` is input from elsewhere: every path in it is checked on disk
/// (real paths, links resolved) before anything is written.
public struct GoldenWriteScope: Sendable {
    /// The suites' folders, as real paths.
    public let roots: [String]

    /// The scope of the suite folders a run was given (real paths; folders that do not exist
    /// are left out, so they can never match).
    public init(suites: [String]) {
        roots = suites.compactMap { Self.realPath($0) }
    }

    /// What a checked accept writes: the case's folder, its golden folder and the actual image.
    public struct Target {
        /// The case's folder (real path).
        public let caseFolder: URL
        /// Its golden folder: `expected/`, or a variant's folder in it.
        public let expected: URL
        /// The actual image to accept (nil when a whole case is accepted).
        public let image: URL?
    }

    /// The case folder of `result` when it lies in one of the roots and is a case: it holds
    /// `case.json5`, or it is the golden folder of a Swift test (under `__Goldens__`).
    public func caseFolder(of result: CaseResult) throws -> URL {
        guard let folder = Self.realPath(result.folder), FileStatus(path: folder)?.kind == .directory else {
            throw refusal("its case folder \(result.folder) does not exist")
        }
        guard roots.contains(where: { Self.path(folder, isInside: $0) }) else {
            throw refusal("its case folder \(folder) is not inside the suite\(roots.count == 1 ? "" : "s") the report was made from (\(roots.isEmpty ? "none recorded" : roots.joined(separator: ", ")))")
        }
        let isCase = FileStatus(path: folder + "/case.json5")?.kind == .regular || folder.split(separator: "/").contains("__Goldens__")
        guard isCase else { throw refusal("\(folder) holds no case.json5") }
        return URL(fileURLWithPath: folder)
    }

    /// The golden folder of `result`, and the actual image of its frame `diff` when given: the
    /// golden folder is the case's `expected/` (or a variant's folder in it), the image a PNG
    /// in the matching `actual/` folder of the same case.
    public func target(of result: CaseResult, frame diff: FrameDiff? = nil) throws -> Target {
        let folder = try caseFolder(of: result).path
        guard let expectedPath = result.expected, let expected = Self.realPath(expectedPath) ?? Self.realPath(parentOf: expectedPath),
              let variant = Self.subfolder(expected, of: folder + "/expected") else {
            throw refusal("its golden folder \(result.expected ?? "(none)") is not the case's expected/ folder")
        }
        guard let diff else { return Target(caseFolder: URL(fileURLWithPath: folder), expected: URL(fileURLWithPath: expected), image: nil) }
        let actualFolder = folder + "/actual" + (variant.isEmpty ? "" : "/" + variant)
        guard let actualPath = diff.actual, let image = Self.realPath(actualPath),
              (image as NSString).deletingLastPathComponent == actualFolder, image.hasSuffix(".png"), FileStatus(path: image)?.kind == .regular else {
            throw refusal("its actual image \(diff.actual ?? "(none)") is not a PNG in the case's \(actualFolder.dropFirst(folder.count + 1))/ folder")
        }
        guard Self.isPNG(image) else { throw refusal("\(image) is not a PNG") }
        return Target(caseFolder: URL(fileURLWithPath: folder), expected: URL(fileURLWithPath: expected), image: URL(fileURLWithPath: image))
    }

    /// An image a report may show: a PNG inside the case's own folder.
    func mayShow(_ path: String, of result: CaseResult) -> Bool {
        guard let folder = try? caseFolder(of: result).path, let image = Self.realPath(path) else { return false }
        return Self.path(image, isInside: folder) && FileStatus(path: image)?.kind == .regular && Self.isPNG(image)
    }

    /// An accept that would write outside the scope: nothing was written.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    private func refusal(_ reason: String) -> Refusal {
        Refusal(description: "refused to accept: \(reason); accepting writes only the goldens of the suite a run was made from")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A folder not yet made (a case's first goldens): its parent's real path and its name.
    static func realPath(parentOf path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard name != "..", name != ".", let parent = realPath(url.deletingLastPathComponent().path) else { return nil }
        return parent + "/" + name
    }

    static func path(_ path: String, isInside root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// "" when `path` is `folder`, the name of a direct subfolder, or nil.
    static func subfolder(_ path: String, of folder: String) -> String? {
        if path == folder { return "" }
        guard path.hasPrefix(folder + "/") else { return nil }
        let rest = String(path.dropFirst(folder.count + 1))
        return rest.isEmpty || rest.contains("/") ? nil : rest
    }

    static func isPNG(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 8)) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
}
