import Foundation
import TextReel

/// Generates random scripts for a document from a seed: scrolls of every kind, flings, far
/// jumps, edits of every kind (at the first and last paragraph too, and deleting everything),
/// resizes, attachment steps and waits. It follows its own edits through a model of the
/// document (each paragraph's length, heading and attachments), so every step it writes can run
/// when the steps run in order: no jump to a heading or attachment an earlier step edited away,
/// no seek past a video's end.
public struct ScriptGenerator {
    /// What the generator knows of one paragraph. An edited heading is no longer a target (its
    /// title changed); a text deletion may have removed any of its attachments, so it drops them.
    struct Paragraph {
        var length: Int
        var heading: String?
        var attachments: [TextAttachment]

        init(_ paragraph: TextParagraph) {
            length = paragraph.text.count
            if case .heading = paragraph.kind { heading = paragraph.text }
            attachments = paragraph.attachments
        }

        init(length: Int) {
            self.length = length
            attachments = []
        }
    }

    var random: ExploreRandom
    /// The attachment kinds the view has (a registration step names one).
    let providers: AttachmentProviders
    /// What the explorer may send each kind's attachments, by scheme.
    let actions: [String: ExploreActions]
    /// The document as read: its reader reads the text an inserting step inserts (a document
    /// built from paragraphs has none, and gets no such step).
    let document: TextDocument
    /// The document as the steps so far leave it.
    var model: [Paragraph]
    var headings: [String] { model.compactMap(\.heading) }
    var attachments: [TextAttachment] { model.flatMap(\.attachments) }
    /// A rough height, so that absolute targets fall inside and past the document.
    let documentHeight: Double
    /// The viewport of the script being generated.
    private(set) var viewport = CGSize(width: 800, height: 600)

    /// A generator for `document`, drawing from `seed` (the same seed writes the same scripts);
    /// `actions`: a custom kind's beside the built-in kinds'.
    public init(document: TextDocument, seed: UInt64, providers: AttachmentProviders = AttachmentProviders(),
                actions: [String: ExploreActions] = [:]) {
        random = ExploreRandom(SplitMix(seed: seed))
        self.providers = providers
        self.actions = AttachmentExploring.builtIn.merging(actions) { $1 }
        self.document = document
        model = document.paragraphs.map(Paragraph.init)
        documentHeight = Double(document.paragraphs.reduce(0) { $0 + $1.text.utf8.count }) / 4 + Double(document.count) * 30
    }

    mutating func below(_ n: Int) -> Int { random.below(n) }
    mutating func unit() -> Double { random.unit() }
    func round(_ v: Double) -> Double { (v * 10).rounded() / 10 }
    /// A paragraph index: the first and last paragraphs are where edits break things, so often them.
    mutating func paragraph() -> Int {
        switch below(4) {
        case 0: return 0
        case 1: return max(model.count - 1, 0)
        default: return below(model.count)
        }
    }
    /// Instant a third of the time, else up to 0.8 s.
    mutating func duration() -> Double { below(3) == 0 ? 0 : round(unit() * 0.8) }

    /// A script of up to `steps` steps.
    public mutating func script(steps count: Int) -> ExploreScript {
        let sizes: [(Double, Double)] = [(800, 600), (375, 667), (480, 320), (1024, 400)]
        let size = sizes[below(sizes.count)]
        viewport = CGSize(width: size.0, height: size.1)
        var steps: [any ScriptStep] = []
        if !attachments.isEmpty && below(2) == 0 {
            let schemes = providers.schemes
            let provider = schemes[below(schemes.count)]
            let policies: [ReusePolicy] = [[], .onScrollingOutOfViewport, .onEditingInlineParagraphs, [.onScrollingOutOfViewport, .onEditingInlineParagraphs]]
            steps.append(RegisterStep([ScrollScript.Registration(provider: provider, policy: policies[below(4)])]))
        }
        while steps.count < count {
            if let step = next() { steps.append(contentsOf: step) }
        }
        return ExploreScript(width: size.0, height: size.1, fps: [10, 30][below(2)], steps: steps)
    }

    /// Draws a step kind by its weight, and lets it make its steps (nil: none fits now).
    private mutating func next() -> [any ScriptStep]? {
        let total = ScriptSteps.explorable.reduce(0) { $0 + $1.generatorWeight }
        var choice = below(total)
        for kind in ScriptSteps.explorable {
            if choice < kind.generatorWeight { return kind.generate(choice, &self) }
            choice -= kind.generatorWeight
        }
        return nil
    }
}

/// A generated script: its settings and steps, written as JSON5. Two scripts are equal when
/// they are written the same.
public struct ExploreScript: Equatable, Sendable {
    /// Viewport width, in points.
    public var width: Double
    /// Viewport height, in points.
    public var height: Double
    /// Frames per second.
    public var fps: Double
    /// The steps, in order.
    public var steps: [any ScriptStep]

    /// A script of `steps` in a `width` × `height` viewport at `fps`.
    public init(width: Double, height: Double, fps: Double, steps: [any ScriptStep]) {
        self.width = width; self.height = height; self.fps = fps; self.steps = steps
    }

    /// The script as a JSON5 file that `ScrollScript` reads back.
    public var json5: String {
        var s = "{\n  viewport: {width: \(Int(width)), height: \(Int(height)), scale: 1},\n  fps: \(Int(fps)),\n  steps: [\n"
        for step in steps { s += "    \(step.json5),\n" }
        return s + "  ],\n}\n"
    }

    public static func == (a: ExploreScript, b: ExploreScript) -> Bool { a.json5 == b.json5 }
}
