import Foundation
import TextReelMarkdown

/// A differing region of a frame, in pixels, and what is drawn there.
public struct Region: Codable, Sendable {
    /// The region's bounding box, in pixels of the frame.
    public var x, y, width, height: Int
    /// What the layout draws there, in words.
    public var what: String
}

/// One golden frame that did not match.
public struct FrameDiff: Codable, Sendable {
    /// The frame's number.
    public var frame: Int
    /// The snapshot names of the frame, when the script names it (`{snapshot: "scrolled"}`).
    public var snapshot: String?
    /// Why it does not match ("812 pixels differ (0 allowed)", "no golden for this frame").
    public var reason: String
    /// Pixels that differ, when the pixels were compared.
    public var mismatch: Int?
    /// Pixels compared, when they were.
    public var total: Int?
    /// The largest groups of differing pixels (at most 20).
    public var regions: [Region] = []
    /// Path of the golden image, when there is one.
    public var expected: String?
    /// Path of the rendered image, written to `actual/`.
    public var actual: String?
    /// Path of the diff image, written to `diff/`, when the pixels were compared.
    public var diff: String?
}

/// The outcome of one case.
public struct CaseResult: Codable, Sendable {
    /// How a case came out.
    public enum Status: String, Codable, Sendable {
        /// Structure and pixels match.
        case passed
        /// A regression: the structure or pixels changed in the same environment.
        case failed
        /// A mismatch while the environment (libraries, fonts, font options) differs from the goldens'.
        case drift
        /// No goldens were there; they were written from this render.
        case recorded
        /// It failed and the goldens were rewritten (`--update changed|all`).
        case updated
    }

    /// The case's name: its folder's name, with the variant's label.
    public var name: String
    /// Path of the case's folder.
    public var folder: String
    /// The goldens' folder: `folder/expected`, or a variant's folder in it.
    public var expected: String?
    /// Golden frames no render produces any more, and those `--prune` removed.
    public var obsolete: [String] = []
    /// The obsolete golden frames this run removed.
    public var pruned: [String] = []
    /// True when this run wrote the case's goldens.
    public var written = false
    /// The run over its frames (viewport y, corrections, shaping, views, broken checks), when it rendered.
    public var chart: RunChart?
    /// The frames whose goldens this run wrote (new, deleted before, or changed).
    public var recordedFrames: [Int] = []
    /// Why the case could not run (its input, its goldens' index or the disk), or nil.
    public var error: String?
    /// The look a `test --theme …` run gave the case (theme, text size, direction), to run it
    /// again the same way when a change is accepted.
    public var look: [String?]?
    /// How this case came out.
    public var status: Status
    /// How many frames were rendered and compared.
    public var frames: Int
    /// Structural changes, broken invariants and budgets, in words (empty: none).
    public var structure: [String] = []
    /// How the environment differs from the goldens', one line per item (empty: not at all).
    public var drift: [String] = []
    /// The frames whose pixels do not match.
    public var diffs: [FrameDiff] = []
    /// The lowest frame number among `diffs`.
    public var firstDivergingFrame: Int?
    /// How long the case took, in seconds.
    public var seconds = 0.0

    /// A result with nothing compared yet.
    public init(name: String, folder: String, status: Status, frames: Int) {
        self.name = name; self.folder = folder; self.status = status; self.frames = frames
    }

    /// Whether the case fails the run: `failed` or `drift`.
    public var isFailure: Bool { status == .failed || status == .drift }
}
