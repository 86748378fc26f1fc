import Foundation
import TextReel

/// Reads an attachment's URL: the scheme names the provider type, the path or `id=` its id,
/// `size=WxH` its box; other query items are kept as parameters. By hand, not GLib's `GUri`: the
/// document room touches no C library but cmark-gfm (C types stay in Typesetting and Rendering),
/// and the grammar is small (scheme, path, `&`-separated query) with messages of its own.
struct AttachmentURL {
    /// Largest side an attachment may have, in points.
    static let maximumSide: Double = 8192

    struct Parsed {
        var attachment: TextAttachment
        var warning: String?
    }

    /// Parses `url`; `ordinal` is the attachment's 1-based place among those of its scheme, for ids.
    /// Throws a message (the caller adds the location).
    /// `declared` is the size HTML's `width` and `height` give (either may be missing); `size=`
    /// in the URL wins over it.
    static func parse(_ url: String, altText: String, baseURL: URL?, limits: ReadingLimits = .standard, declared: (width: Double?, height: Double?) = (nil, nil),
                      kinds: AttachmentKinds, ordinal: (String) -> Int) throws -> Parsed {
        let (scheme, rest) = split(url)
        let (path, query) = splitQuery(rest)
        var items: [String: String] = [:]
        var notes: [String] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let key = decoded(parts[0]), value = parts.count > 1 ? decoded(parts[1]) : ""
            if let earlier = items[key], earlier != value { notes.append("query key '\(key)' is given twice; '\(value)' counts") }
            items[key] = value
        }
        // Keys the kind does not read are ignored: say so (a kind that declares none may read any).
        let kindName = scheme.map { $0 == "file" ? "image" : $0 } ?? "image"
        let kind = kinds.kinds[kindName]
        if let known = kind?.readKeys {
            for key in items.keys.sorted() where !known.union(["size", "id"]).contains(key) {
                notes.append("unknown query key '\(key)' is ignored; \(kindName) reads \((known.sorted() + ["size", "id"]).joined(separator: ", "))")
            }
        }
        func withNotes(_ main: String?) -> String? {
            let all = (main.map { [$0] } ?? []) + notes
            return all.isEmpty ? nil : all.joined(separator: "; ")
        }
        let explicitSize = try items.removeValue(forKey: "size").map { try parseSize($0) }
        /// HTML's width and height: both, or one with the other from the intrinsic aspect.
        func declaredSize(intrinsic: CGSize?) -> CGSize? {
            switch declared {
            case let (w?, h?): return CGSize(width: min(w, maximumSide), height: min(h, maximumSide))
            case let (w?, nil): return CGSize(width: min(w, maximumSide), height: intrinsic.map { ($0.height * w / max($0.width, 1)).rounded() } ?? min(w, maximumSide) * 0.75)
            case let (nil, h?): return CGSize(width: intrinsic.map { ($0.width * h / max($0.height, 1)).rounded() } ?? min(h, maximumSide) * 4 / 3, height: min(h, maximumSide))
            default: return nil
            }
        }
        let explicitID = items.removeValue(forKey: "id")

        let imageSize = kinds.kinds["image"]?.defaultSize(items) ?? CGSize(width: 160, height: 120)
        switch scheme {
        case nil, "file"?:
            let (file, refused) = resolve(path: path, baseURL: baseURL, allowOutside: limits.allowOutside, root: limits.root)
            var warning: String?, problem: String?
            var size = explicitSize
            let inspection = refused.map { .problem($0) } ?? file.map { kinds.inspectImage($0, Double(limits.imagePixels)) } ?? .problem("not found")
            switch inspection {
            case .tooLarge(let intrinsic):
                throw Message("image \(path) is \(Int(intrinsic.width))×\(Int(intrinsic.height)) px, too large; expected at most \(limits.imagePixels >> 20) megapixels and \(ReadingLimits.imageSide) px a side")
            case .image(let intrinsic):
                if size == nil { size = declaredSize(intrinsic: intrinsic) ?? intrinsic }
            case .damaged(let intrinsic, let why):
                if size == nil { size = declaredSize(intrinsic: intrinsic) ?? intrinsic }
                problem = why
            case .problem(let why):
                problem = why
            }
            if let problem { warning = "image \(path): \(problem); drawing a placeholder that says so" }
            if size == nil { size = declaredSize(intrinsic: nil) }
            let id = explicitID ?? "image-\(ordinal("image"))"
            return Parsed(attachment: TextAttachment(scheme: "image", id: id, size: size ?? imageSize,
                                                     url: url, parameters: items, file: file, altText: altText, problem: problem),
                          warning: withNotes(warning))
        case "http"?, "https"?:
            let id = explicitID ?? "image-\(ordinal("image"))"
            // Not fetched (TextReel renders offline): a box of the size HTML gives, else one line
            // tall and as wide as its alt text, as badges are.
            let size = explicitSize ?? declaredSize(intrinsic: nil) ?? TextAttachment.badgeSize(for: altText)
            return Parsed(attachment: TextAttachment(scheme: "image", id: id, size: size,
                                                     url: url, parameters: items, file: nil, altText: altText,
                                                     problem: TextAttachment.notFetched),
                          warning: withNotes("remote image \(url) is not fetched; drawing its alt text in its place"))
        case let scheme? where kind != nil && scheme != "image":
            do { try kind!.check(&items) } catch let error as TextReelError { throw Message(error.message) }
            guard let size = explicitSize ?? kind!.defaultSize(items) else {
                throw Message("attachment '\(scheme):\(path)' needs a size (size=WIDTHxHEIGHT); its provider has no default")
            }
            let id = explicitID ?? (path.isEmpty ? "\(scheme)-\(ordinal(scheme))" : path)
            return Parsed(attachment: TextAttachment(scheme: scheme, id: id, size: size, url: url, parameters: items, altText: altText),
                          warning: withNotes(nil))
        case let scheme?:
            let known = kinds.kinds.keys.filter { $0 != "image" }.sorted().map { "\($0):" }.joined(separator: ", ")
            throw Message("unknown attachment scheme '\(scheme):'; expected an image path or one of \(known)")
        }
    }

    struct Message: Error { let text: String; init(_ text: String) { self.text = text } }

    /// Percent-decoding, skipped when there is nothing to decode (Foundation's is slow, and
    /// loading large documents calls this for every attachment).
    static func decoded(_ text: String) -> String {
        UTF8Text.contains(UInt8(ascii: "%"), in: text) ? (text.removingPercentEncoding ?? text) : text
    }

    /// "video:intro?x" → ("video", "intro?x"); a path without a scheme → (nil, path).
    static func split(_ url: String) -> (String?, String) {
        guard let colon = url.firstIndex(of: ":") else { return (nil, url) }
        let candidate = url[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return (nil, url) }
        var rest = url[url.index(after: colon)...]
        if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        return (candidate.lowercased(), String(rest))
    }

    static func splitQuery(_ rest: String) -> (String, String) {
        guard let mark = rest.firstIndex(of: "?") else { return (rest, "") }
        return (String(rest[..<mark]), String(rest[rest.index(after: mark)...]))
    }

    static func parseSize(_ text: String) throws -> CGSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw Message("malformed size '\(text)'; expected WIDTHxHEIGHT in points, like 320x180")
        }
        guard w <= maximumSide, h <= maximumSide else {
            throw Message("size '\(text)' is too large; each side must be at most \(Int(maximumSide)) points")
        }
        return CGSize(width: w, height: h)
    }

    /// The image file for `path`, or why it is not read: a path must stay inside the document's
    /// folder (lexically, and after following symbolic links) unless `allowOutside`. A README's
    /// `/docs/shot.png` (the repository's root on GitHub) or `../assets/demo.gif` is then drawn
    /// as a placeholder that says so, and the rest of the document still renders.
    static func resolve(path: String, baseURL: URL?, allowOutside: Bool, root: URL? = nil) -> (file: URL?, refused: String?) {
        // A URL's query and fragment are never part of a file's name (`shot.png?raw=true`,
        // `logo.png#gh-dark-mode-only`).
        let decoded = decoded(String(path.prefix { $0 != "#" && $0 != "?" }))
        guard !decoded.isEmpty else { return (nil, nil) }
        let base = (baseURL ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        // As GitHub reads a README: `/docs/shot.png` and `../assets/x.png` are the repository's
        // files, its root the one given (`--root`) or the nearest folder holding `.git`; without
        // one, the document's folder.
        let repository = root?.standardizedFileURL ?? repositoryRoot(of: base)
        let confinement = repository ?? base
        let place = repository == nil ? "the document's folder" : "the repository"
        let how = ", not read (--allow-outside reads it)"
        let file: URL
        if decoded.hasPrefix("/") {
            if allowOutside && repository == nil { return (URL(fileURLWithPath: decoded), nil) }
            guard let repository else { return (nil, "absolute path\(how)") }
            file = repository.appendingPathComponent(String(decoded.drop { $0 == "/" })).standardizedFileURL
        } else {
            file = base.appendingPathComponent(decoded).standardizedFileURL
        }
        guard !allowOutside else { return (file, nil) }
        let root = confinement.path.hasSuffix("/") ? confinement.path : confinement.path + "/"
        guard file.path.hasPrefix(root) else { return (nil, "outside \(place)\(how)") }
        if let real = realPath(file.path), let realRoot = realPath(confinement.path), !(real + "/").hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") {
            return (nil, "symbolic link out of \(place)\(how)")
        }
        return (file, nil)
    }

    /// The nearest folder from `folder` up holding `.git` (a folder, or a worktree's file).
    static func repositoryRoot(of folder: URL) -> URL? {
        var candidate = folder
        while true {
            if FileStatus(path: candidate.appendingPathComponent(".git").path) != nil { return candidate }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path || candidate.path == "/" { return nil }
            candidate = parent
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
