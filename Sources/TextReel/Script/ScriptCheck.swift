import Foundation

/// Runs a script on a document the ways the explorer compares, and says how it fails: a broken
/// invariant or budget in some frame, a second run without the surface cache that draws different
/// pixels (determinism, and no stale surface), or
/// a `--frames A-B` run whose frames differ from the same frames of the full run.
public enum ScriptCheck {
    /// How a script fails: which check, in which frame, and why.
    public struct Failure: Codable, Sendable, Equatable {
        /// "invariant", a budget's name, "determinism", "frames", "error" or "crash".
        public var check: String
        /// The 1-based frame it fails in (nil: not any one frame, as for an error or a crash).
        public var frame: Int?
        /// What went wrong, in words.
        public var message: String

        /// A failure of `check` in `frame`.
        public init(check: String, frame: Int?, message: String) {
            self.check = check; self.frame = frame; self.message = message
        }

        /// What "failing the same way" means when shrinking: the check and the message with its
        /// numbers taken out.
        public var signature: String {
            check + ": " + String(message.map { $0.isNumber ? "#" : $0 })
                .replacing(/-?#+([.,]#+)*/, with: "#")
        }
    }

    /// The first failure of `script` on `document`, or nil. A script that cannot run (a step
    /// naming a paragraph that no longer exists) throws its `TextReelError`.
    public static func run(document: TextDocument, script: ScrollScript, budget: Budget,
                           frames range: ClosedRange<Int>?) throws -> Failure? {
        func view() -> TextView {
            let viewport = script.viewport ?? .standard
            return TextView(document: document, viewportSize: CGSize(width: viewport.width, height: viewport.height), scale: viewport.scale)
        }
        // A frame's pixels and its PNG bytes: both must be the same in every run (the bytes must
        // not depend on what the band cache held).
        func digest(_ frame: RenderedFrame?) -> Int {
            guard let frame else { return 0 }
            var hasher = Hasher()
            hasher.combine(frame.pixelDigest)
            hasher.combine(try? frame.pngData())
            return hasher.finalize()
        }
        var digests: [Int] = []
        var failure: Failure?
        let first = try ScriptRunner(view: view(), script: script)
        try first.run { number, frame, event in
            if failure == nil, let broken = budget.violations(of: event).first {
                failure = Failure(check: broken.check, frame: number, message: broken.message)
            }
            digests.append(digest(frame))
        }
        if let failure { return failure }
        // The second run draws every fragment afresh: the first's frames, from cached surfaces,
        // must equal them pixel for pixel (a stale surface passes any test run cached only).
        let uncached = view()
        uncached.cachesFragments = false
        let second = try ScriptRunner(view: uncached, script: script)
        try second.run { number, frame, _ in
            if failure == nil, digest(frame) != digests[number - 1] {
                failure = Failure(check: "determinism", frame: number,
                                  message: "a second run, drawing every surface afresh, draws different pixels or PNG bytes (a stale cached surface or band, or a frame that is not deterministic)")
            }
        }
        if let failure { return failure }
        if let range, range.upperBound <= digests.count {
            let partial = try ScriptRunner(view: view(), script: script)
            try partial.run(drawing: range) { number, frame, _ in
                if failure == nil, let frame, digest(frame) != digests[number - 1] {
                    failure = Failure(check: "frames", frame: number,
                                      message: "drawing only frames \(range.lowerBound)-\(range.upperBound) gives other pixels or PNG bytes than the full run")
                }
            }
        }
        return failure
    }
}
