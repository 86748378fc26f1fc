import Foundation
import TextReel

/// A differing region of a frame, in pixels, and what is drawn there.
public struct Region: Codable, Sendable {
    public var x, y, width, height: Int
    public var what: String
}

/// One golden frame that did not match.
public struct FrameDiff: Codable, Sendable {
    public var frame: Int
    public var reason: String
    public var mismatch: Int?
    public var total: Int?
    public var regions: [Region] = []
    public var expected: String?
    public var actual: String?
    public var diff: String?
}

/// The outcome of one case.
public struct CaseResult: Codable, Sendable {
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

    public var name: String
    public var folder: String
    /// The goldens' folder: `folder/expected`, or a variant's folder in it.
    public var expected: String?
    /// Golden frames no render produces any more, and those `--prune` removed.
    public var obsolete: [String] = []
    public var pruned: [String] = []
    /// True when this run wrote the case's goldens.
    public var written = false
    /// Why the case could not run (its input, its goldens' index or the disk), or nil.
    public var error: String?
    /// The look a `test --theme …` run gave the case (theme, text size, direction), to run it
    /// again the same way when a change is accepted.
    public var look: [String?]?
    public var status: Status
    public var frames: Int
    public var structure: [String] = []
    public var drift: [String] = []
    public var diffs: [FrameDiff] = []
    public var firstDivergingFrame: Int?
    public var seconds = 0.0

    public var isFailure: Bool { status == .failed || status == .drift }
}
