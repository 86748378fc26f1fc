import Foundation
import TextReelMarkdown

/// One golden case: a folder with `case.json5` (the document, script, viewport, which frames,
/// and the tolerance) and `expected/`.
public struct GoldenCase: Sendable {
    /// How far frames may differ from their goldens (`tolerance:` in case.json5).
    public struct Tolerance: Codable, Equatable, Sendable {
        /// Colour distance, 0…1, above which a pixel differs (pixelmatch's threshold).
        public var threshold = 0.1
        /// Differing pixels allowed per frame.
        public var maxDiffPixels = 0
        /// Differing pixels allowed per frame, as a fraction of its pixels (the larger allowance wins).
        public var maxDiffPixelRatio = 0.0
        /// Whether anti-aliased pixels count as differences.
        public var includeAA = false
        /// The default: threshold 0.1, no differing pixel allowed.
        public init() {}

        /// A tolerance; unnamed settings as in the default.
        public init(threshold: Double = 0.1, maxDiffPixels: Int = 0, maxDiffPixelRatio: Double = 0, includeAA: Bool = false) {
            self.threshold = threshold
            self.maxDiffPixels = maxDiffPixels
            self.maxDiffPixelRatio = maxDiffPixelRatio
            self.includeAA = includeAA
        }

        public init(from decoder: Decoder) throws {
            let c = try StrictContainer(decoder, allowed: ["threshold", "maxDiffPixels", "maxDiffPixelRatio", "includeAA"])
            threshold = try c.number("threshold", default: 0.1, in: 0...1)
            maxDiffPixels = c.has("maxDiffPixels") ? try c.index("maxDiffPixels", what: "a number of pixels") : 0
            maxDiffPixelRatio = try c.number("maxDiffPixelRatio", default: 0, in: 0...1)
            includeAA = try c.optional(Bool.self, "includeAA") ?? false
        }
    }

    /// Which frames are kept as goldens (`frames:`).
    public enum Frames: String, Codable, Sendable, CaseIterable {
        /// Every frame the script makes.
        case all
        /// Only the frames named by `snapshot` steps.
        case snapshots
    }

    /// The case's name: its folder's name, with a variant's label.
    public var name: String
    /// The folder holding `case.json5` and `expected/`.
    public let folder: URL
    /// The Markdown document, resolved against the folder.
    public var document: URL
    /// The scroll script (nil: one still frame).
    public var script: URL?
    /// The viewport (nil: the script's, else `Viewport.standard`).
    public var viewport: ScrollScript.Viewport?
    /// Which frames are kept as goldens (default: all).
    public var frames: Frames
    /// How far frames may differ from their goldens.
    public var tolerance: Tolerance
    /// Whether frames are drawn with the layout overlay.
    public var overlay: Bool
    /// Limits every frame must keep (`expect: {maxJump: 0, …}`); invariants are always checked.
    public var budget: Budget
    /// What case.json5 says twice (a repeated key).
    public var warnings: [String]
    /// `theme:`, `textSize:` and `direction:` of the case (a variant sets its own).
    public var appearance: Appearance
    /// The variant this case is, when case.json5 lists `variants`.
    public var variant: Variant?
    /// The variants case.json5 asks for, each a case of its own (empty: none).
    var variantSpecs: [Variant] = []
    /// How many variants the case's matrix has (0: none; a `--theme` run is not a matrix).
    var variantSpecsCount = 0

    /// One combination of a variant matrix: its look, its width, its name and its goldens' folder.
    public struct Variant: Sendable, Equatable {
        /// Theme, text size and direction, over the case's own.
        public var appearance: Appearance
        /// Viewport width in points (nil: the case's).
        public var width: Double?
        /// A variant of `appearance` at `width`.
        public init(appearance: Appearance, width: Double?) {
            self.appearance = appearance
            self.width = width
        }
        /// "dark · XXXL · 375"
        public var label: String {
            ([appearance.label] + [width.map { ViewportWidth.format($0) }].compactMap { $0 }).filter { !$0.isEmpty }.joined(separator: " · ")
        }
        /// "dark-XXXL-375", the folder under expected/.
        public var folderName: String { label.replacingOccurrences(of: " · ", with: "-") }
    }

    /// The case in the look given on the command line (`textreel test --theme dark`): a variant
    /// of its own, with goldens in expected/<look>/. A case with a variant matrix stays as it is.
    public func restyled(_ look: Appearance) -> GoldenCase {
        guard variant == nil, look != Appearance() else { return self }
        var copy = self
        copy.variant = Variant(appearance: look, width: nil)
        copy.name = "\(name) [\(look.label)]"
        copy.appearance = look.over(appearance)
        return copy
    }

    /// The case as run: itself, or one case per variant.
    public var variants: [GoldenCase] {
        guard !variantSpecs.isEmpty else { return [self] }
        return variantSpecs.map { spec in
            var copy = self
            copy.variant = spec
            copy.variantSpecs = []
            copy.name = "\(name) [\(spec.label)]"
            copy.appearance = spec.appearance.over(appearance)
            return copy
        }
    }

    /// Reads `folder/case.json5`; problems are `TextReelError`s naming the file.
    public init(folder: URL) throws {
        let file = folder.appendingPathComponent("case.json5")
        guard FileStatus(path: file.path) != nil else {
            throw TextReelError(file: file.path, "no case.json5; a golden case is a folder with a case.json5")
        }
        let data = try InputFile.read(file, what: "case file", expected: "a JSON5 case file", maximumBytes: InputFile.maximumTextBytes)
        let (spec, warnings) = try CaseFile.decode(data, fileName: file.path)
        self.warnings = warnings
        name = folder.lastPathComponent
        self.folder = folder
        if spec.document.hasPrefix("/") {
            throw TextReelError(file: file.path, "its document '\(spec.document)' is an absolute path; expected a path relative to the case folder, so the suite works wherever it is checked out")
        }
        document = folder.appendingPathComponent(spec.document).standardizedFileURL
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: document.path, isDirectory: &isDirectory) || isDirectory.boolValue {
            throw TextReelError(file: file.path, "its document '\(spec.document)' \(isDirectory.boolValue ? "is a folder" : "does not exist") (\(document.standardizedFileURL.path)); expected a Markdown file, relative to the case folder")
        }
        // Relative to the case's folder; an absolute path is taken as written.
        script = spec.script.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : folder.appendingPathComponent($0).standardizedFileURL }
        viewport = spec.viewport.map { ScrollScript.Viewport(width: $0.width, height: $0.height, scale: $0.scale ?? 1) }
        frames = spec.frames ?? .all
        tolerance = spec.tolerance ?? Tolerance()
        overlay = spec.overlay ?? false
        budget = spec.expect ?? Budget()
        appearance = spec.appearance
        variantSpecs = spec.variants
        variantSpecsCount = spec.variants.count
        // A theme that is not there (or not a theme) is a mistake in case.json5: found now,
        // before anything runs, rather than as a failure of each case that uses it.
        for look in Set([appearance] + spec.variants.map(\.appearance)) {
            guard let theme = look.theme, Theme.builtIn[theme] == nil else { continue }
            let path = theme.hasPrefix("/") ? theme : folder.appendingPathComponent(theme).standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path) else {
                throw TextReelError(file: file.path, "its theme '\(theme)' is neither \(Theme.builtIn.keys.sorted().joined(separator: ", ")) nor a theme file (\(path)); a theme file's path is relative to the case folder")
            }
            _ = try look.resolve(relativeTo: folder)
        }
    }

    /// A case that cannot be read (a missing document, a case.json5 that is not one): it runs as
    /// a failure with `error`, alone, so the suite's other cases still run and are reported.
    init(unreadable folder: URL, error: Error) {
        name = folder.lastPathComponent
        self.folder = folder
        document = folder.appendingPathComponent("case.json5")
        frames = .all
        tolerance = Tolerance()
        overlay = false
        budget = Budget()
        warnings = []
        appearance = Appearance()
        readError = "\(error)"
    }

    /// Why the case could not be read; nil for a case that can run.
    public private(set) var readError: String?

    /// Checks `case.json5` bytes without a folder (for fuzzing the reader).
    public static func validate(caseData data: Data) throws {
        _ = try CaseFile.decode(data, fileName: "case.json5").0
    }

    /// One rendered frame: its PNG bytes (as `textreel render` writes them, compared with the
    /// golden's bytes first) and its pixels, decoded from them only when the bytes differ. The
    /// frame itself is not kept: a passing 300-frame case held 300 frame surfaces (576 MB at
    /// 800 × 600) only to throw them away.
    public struct Frame {
        /// The PNG bytes.
        public let png: Data
        /// The pixels, decoded from the PNG on each use (the PNG is lossless: they are the frame's).
        public var image: RGBAImage { (try? RGBAImage(pngData: png)) ?? RGBAImage(width: 1, height: 1) }
    }

    /// What a render of the case produced.
    public struct Rendered {
        /// The kept frames, by frame number.
        public var frames: [Int: Frame] = [:]
        /// The structure of the kept frames.
        public var layout = LayoutSnapshot()
        /// The environment it was rendered in.
        public var fingerprint: EnvironmentFingerprint
        /// How many frames the script makes, kept or not.
        public var frameCount = 0
        /// The snapshot names of each frame that has any ("top", or "a, b" for two at once).
        public var snapshots: [Int: String] = [:]
        /// Broken invariants and budgets, in frame order.
        public var violations: [Budget.Violation] = []
        /// Every frame's measures, for the report's chart.
        public var chart = RunChart()
    }

    /// Renders the case and keeps the frames it asks for.
    public func render(fontSet: FontSet = .standard) throws -> Rendered {
        let document = try TextDocument(contentsOf: document)
        let script = try self.script.map { try ScrollScript(contentsOf: $0) } ?? .still
        let viewport = self.viewport ?? script.viewport ?? .standard
        // The case's look over the script's; a theme file is relative to the case folder.
        let theme = try appearance.over(script.appearance).resolve(relativeTo: folder)
        let size = CGSize(width: variant?.width ?? viewport.width, height: viewport.height)
        do { try ViewportLimits.check(size, scale: viewport.scale, theme: theme) } catch let error as TextReelError {
            // Named after where the size came from: the script's viewport, or case.json5.
            let fromScript = self.viewport == nil && variant?.width == nil && script.viewport != nil
            let source = (fromScript ? self.script : nil) ?? folder.appendingPathComponent("case.json5")
            throw TextReelError(file: source.path, error.message)
        }
        let view = TextView(document: document, viewportSize: size, scale: viewport.scale, theme: theme, fontSet: fontSet)
        view.showsOverlay = overlay
        return try Self.render(view, script: script, frames: frames, fontSet: fontSet, budget: budget)
    }

    /// Plays `script` on `view`, keeping the frames asked for with their structure.
    static func render(_ view: TextView, script: ScrollScript, frames: Frames, fontSet: FontSet,
                       budget: Budget = Budget()) throws -> Rendered {
        let runner = try ScriptRunner(view: view, script: script)
        let wanted = frames == .snapshots ? Set(runner.snapshots.values) : Set(1...max(runner.frameCount, 1))
        var rendered = Rendered(fingerprint: .current(fontSet: fontSet, helperLibraries: HelperProcess.libraries))
        rendered.frameCount = runner.frameCount
        rendered.snapshots = Dictionary(grouping: runner.snapshots, by: \.value).mapValues { $0.map(\.key).sorted().joined(separator: ", ") }
        let encoder = FrameWriter()
        // Frames handed to the encoder, in order; each is let go once its bytes are ready.
        var inFlight: [(number: Int, frame: RenderedFrame)] = [], handedOver = 0
        func collect(_ encoded: Int) throws {
            while handedOver - inFlight.count < encoded, let (number, frame) = inFlight.first {
                rendered.frames[number] = Frame(png: try frame.pngData(compression: encoder.compression))
                inFlight.removeFirst()
            }
        }
        try runner.run(drawingWhere: wanted.contains) { number, frame, event in
            let broken = budget.violations(of: event)
            rendered.violations += broken
            rendered.chart.add(event, broken: broken.count)
            guard wanted.contains(number), let frame else { return }
            try encoder.encode(frame)
            inFlight.append((number, frame))
            handedOver += 1
            rendered.layout.frames[number] = LayoutSnapshot.frame(of: frame.pass!)
            try collect(encoder.framesOnDisk)
        }
        try encoder.finish()
        try collect(handedOver)
        return rendered
    }
}

/// `case.json5` as written, read with the project's one strict decoder: unknown keys and
/// impossible values are errors at their line and column.
struct CaseFile: Decodable {
    struct Viewport: Decodable {
        var width: Double
        var height: Double
        var scale: Double?

        init(from decoder: Decoder) throws {
            let c = try StrictContainer(decoder, allowed: ["width", "height", "scale"])
            width = try c.number("width", in: 1...16384)
            height = try c.number("height", in: 1...16384)
            scale = c.has("scale") ? try c.number("scale", in: ScrollScript.Viewport.scales) : nil
        }
    }

    var document: String
    var script: String?
    var viewport: Viewport?
    var frames: GoldenCase.Frames?
    var tolerance: GoldenCase.Tolerance?
    var overlay: Bool?
    var expect: Budget?
    var appearance = Appearance()
    var variants: [GoldenCase.Variant] = []

    init(from decoder: Decoder) throws {
        let c = try StrictContainer(decoder, allowed: ["document", "script", "viewport", "frames", "tolerance", "overlay", "expect",
                                                       "theme", "textSize", "direction", "variants"])
        appearance = try Appearance.decode(c)
        variants = try c.optional(VariantMatrix.self, "variants")?.variants ?? []
        document = try c.required(String.self, "document")
        script = try c.optional(String.self, "script")
        viewport = try c.optional(Viewport.self, "viewport")
        if c.has("frames") { frames = try c.choice(GoldenCase.Frames.self, "frames", default: .all) }
        tolerance = try c.optional(GoldenCase.Tolerance.self, "tolerance")
        overlay = try c.optional(Bool.self, "overlay")
        if c.has("expect") { expect = try c.required(ExpectFile.self, "expect").budget }
    }

    /// `expect: {maxJump: 0, flicker: false}`: the budget's own names and values.
    struct ExpectFile: Decodable {
        var budget = Budget()
        init(from decoder: Decoder) throws {
            // Every key is let through here: the budget says which names it knows.
            let c = try StrictContainer(decoder, allowed: try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue))
            for key in c.keys.sorted() {
                let text: String
                if let flag = try? c.required(Bool.self, key) { text = String(flag) } else { text = NumberText.text(try c.required(Double.self, key)) }
                do { try budget.set(key, text) } catch let error as TextReelError { throw c.impossible(key, error.message) }
            }
        }
    }

    /// Decodes JSON5 bytes with the project's JSON5 reader (line:column errors, repeated keys
    /// reported). Invalid UTF-8 is refused first.
    static func decode(_ data: Data, fileName: String) throws -> (CaseFile, warnings: [String]) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw TextReelError(file: fileName, "invalid UTF-8; expected a JSON5 text file")
        }
        let document = try JSON5Document(text: text, fileName: fileName)
        return (try document.decode(CaseFile.self), document.warnings)
    }
}

/// `variants: {theme: ["light", "dark"], textSize: ["M", "XXXL"], width: [375, 800],
/// direction: ["ltr", "rtl"], only: ["dark-XXXL-ltr-375"]}`: the product of the lists given (in
/// that order), or the listed subset of it.
struct VariantMatrix: Decodable {
    var variants: [GoldenCase.Variant]

    init(from decoder: Decoder) throws {
        let c = try StrictContainer(decoder, allowed: ["theme", "textSize", "width", "direction", "only"])
        guard c.keys.contains(where: { $0 != "only" }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.container.codingPath,
                debugDescription: "variants lists no axis; give theme, textSize, width or direction, or leave variants out"))
        }
        func list<T: Decodable>(_ key: String, _ type: T.Type) throws -> [T?] {
            guard let values = try c.optional([T].self, key) else { return [nil] }
            guard !values.isEmpty else { throw c.impossible(key, "an empty list; give at least one value or leave the key out") }
            return values
        }
        var variants: [GoldenCase.Variant] = []
        for theme in try list("theme", String.self) {
            for size in try list("textSize", String.self) {
                for width in try list("width", Double.self) {
                    if let width, !(width >= 1 && width <= 16384) {
                        throw c.impossible("width", "width \(NumberText.text(width)) is out of range; expected 1 to 16384")
                    }
                    for direction in try list("direction", String.self) {
                        do {
                            let appearance = try Appearance.parse(theme: theme, textSize: size, direction: direction)
                            variants.append(GoldenCase.Variant(appearance: appearance, width: width))
                        } catch let error as TextReelError {
                            throw c.impossible(error.message.contains("direction") ? "direction" : "textSize", error.message)
                        }
                    }
                }
            }
        }
        // Two equal values (or two names of one size, "XL" and "extraLarge") would be two cases
        // writing one golden folder.
        var seen: Set<String> = []
        if let twice = variants.map(\.folderName).first(where: { !seen.insert($0).inserted }) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.container.codingPath,
                debugDescription: "the variant '\(twice)' comes twice; a value (or another name for it) is repeated in a list"))
        }
        if let only = try c.optional([String].self, "only") {
            let names = variants.map(\.folderName)
            if let unknown = only.first(where: { !names.contains($0) }) {
                throw c.impossible("only", "'\(unknown)' is not one of the variants (\(names.joined(separator: ", ")))")
            }
            variants = variants.filter { only.contains($0.folderName) }
        }
        self.variants = variants
    }
}

/// Widths as case names write them: 375, not 375.0.
enum ViewportWidth {
    static func format(_ width: Double) -> String { NumberText.text(width) }
}

