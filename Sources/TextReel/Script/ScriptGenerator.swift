import Foundation

/// Generates random scripts for a document from a seed: scrolls of every kind, flings, far
/// jumps, edits of every kind (at the first and last paragraph too, and deleting everything),
/// resizes, attachment steps and waits. It follows its own edits through a model of the
/// document (each paragraph's length, heading and attachments), so every step it writes can run
/// when the steps run in order: no jump to a heading or attachment an earlier step edited away,
/// no seek past a video's end.
public struct ScriptGenerator {
    /// What the generator knows of one paragraph. An edited heading is no longer a target (its
    /// title changed); a text deletion may have removed any of its attachments, so it drops them.
    private struct Paragraph {
        var length: Int
        var heading: String?
        var attachments: [(id: String, scheme: String, kind: String?, duration: Double)]

        init(_ paragraph: TextParagraph) {
            length = paragraph.text.count
            if case .heading = paragraph.kind { heading = paragraph.text }
            attachments = paragraph.attachments.map {
                ($0.id, $0.scheme, $0.parameters["kind"], VideoAttachmentViewProvider.duration(of: $0))
            }
        }
    }

    private var random: SplitMix
    private var model: [Paragraph]
    private var headings: [String] { model.compactMap(\.heading) }
    private var attachments: [(id: String, scheme: String, kind: String?, duration: Double)] { model.flatMap(\.attachments) }
    private var documentHeight: Double

    public init(document: TextDocument, seed: UInt64) {
        random = SplitMix(seed: seed)
        model = document.paragraphs.map(Paragraph.init)
        // A rough height so that absolute targets fall inside and past the document.
        documentHeight = Double(document.paragraphs.reduce(0) { $0 + $1.text.utf8.count }) / 4 + Double(document.count) * 30
    }

    private mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(random.next() % UInt64(n)) }
    private mutating func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
    private mutating func round(_ v: Double) -> Double { (v * 10).rounded() / 10 }
    private mutating func paragraph() -> Int {
        // The first and last paragraphs are where edits break things: pick them often.
        switch below(4) {
        case 0: return 0
        case 1: return max(model.count - 1, 0)
        default: return below(model.count)
        }
    }
    private mutating func duration() -> Double { below(3) == 0 ? 0 : round(unit() * 0.8) }

    /// A script of up to `steps` steps.
    public mutating func script(steps count: Int) -> ExploreScript {
        let sizes: [(Double, Double)] = [(800, 600), (375, 667), (480, 320), (1024, 400)]
        let size = sizes[below(sizes.count)]
        var steps: [ExploreStep] = []
        if !attachments.isEmpty && below(2) == 0 {
            let provider = ["video", "drawing", "control", "image"][below(4)]
            steps.append(ExploreStep(.register, [Double(below(4))], text: provider))
        }
        while steps.count < count {
            if let step = next(viewport: size) { steps.append(contentsOf: step) }
        }
        return ExploreScript(width: size.0, height: size.1, fps: [10, 30][below(2)], steps: steps)
    }

    private mutating func next(viewport: (Double, Double)) -> [ExploreStep]? {
        switch below(20) {
        case 0, 1: return [ExploreStep(.scrollTo, [round(unit() * documentHeight * 1.2), duration(), Double(below(4))])]
        case 2, 3, 4: return [ExploreStep(.scrollBy, [round((unit() * 2 - 1) * viewport.1 * 3), duration(), Double(below(4))])]
        // An empty document has no paragraph to go to or edit. (One `where` per pattern: in
        // `case 5, 10, 11 where …` it guarded 11 only, and 5 and 10 were never generated.)
        case 5 where model.isEmpty, 10 where model.isEmpty, 11 where model.isEmpty: return nil
        case 5: return [ExploreStep(.toParagraph, [Double(paragraph()), Double(below(3))])]
        case 6: return headings.isEmpty ? nil : [ExploreStep(.toHeading, [Double(below(3))], text: headings[below(headings.count)])]
        case 7: return attachments.isEmpty ? nil : [ExploreStep(.toAttachment, [Double(below(3))], text: attachments[below(attachments.count)].id)]
        case 8: return [ExploreStep(.fling, [round((unit() * 2 - 1) * 8000), Double(below(2))])]
        case 9: return [ExploreStep(.wait, [round(unit() * 0.3)])]
        case 10:
            let p = paragraph(), at = below(model[p].length + 1)
            let text = ["x", "Hello ", " more words to wrap the line further", "文本", "نص "][below(5)]
            model[p].length += text.count
            model[p].heading = nil
            return [ExploreStep(.insertText, [Double(p), Double(at)], text: text)]
        case 11:
            let p = paragraph()
            guard model[p].length > 0 else { return nil }
            let from = below(model[p].length), length = 1 + below(model[p].length - from)
            model[p].length -= length
            model[p].heading = nil
            model[p].attachments = []
            return [ExploreStep(.deleteText, [Double(p), Double(from), Double(length)])]
        case 12:
            let after = model.isEmpty || below(4) == 0 ? -1 : paragraph()
            let markdown = ["A new paragraph.", "## New heading", "- a list item", "```\ncode\n```",
                            "![](video:v\(random.next() % 1000)?size=200x100)", String(repeating: "long ", count: 120)][below(6)]
            guard let parsed = (try? TextDocument(markdown: markdown))?.paragraphs.first else { return nil }
            var inserted = Paragraph(parsed)
            inserted.attachments = []    // its id is the reader's to choose in the whole document
            model.insert(inserted, at: after + 1)
            return [ExploreStep(.insertParagraph, [Double(after)], text: markdown)]
        case 13:
            guard model.count > 1 else { return nil }
            if model.count <= 40 && below(6) == 0 {
                // Delete everything that can be deleted (one paragraph always stays).
                let steps = (1..<model.count).map { _ in ExploreStep(.deleteParagraph, [0]) }
                model = [model.last!]
                return steps
            }
            let p = paragraph()
            model.remove(at: p)
            return [ExploreStep(.deleteParagraph, [Double(p)])]
        case 14:
            return [ExploreStep(.resize, [Double(200 + below(900)), Double(150 + below(700))])]
        case 15: return [ExploreStep(.setNeedsLayout)]
        case 16, 17:
            guard !attachments.isEmpty else { return nil }
            let a = attachments[below(attachments.count)]
            switch (a.scheme, a.kind) {
            case ("video", _): return [ExploreStep(.attachment, [Double([0, 1, 2][below(3)]), (unit() * a.duration * 10).rounded(.down) / 10], text: a.id)]
            case ("control", "textfield"?):
                return [ExploreStep(.attachment, [3], text: a.id), ExploreStep(.attachment, [5], text: a.id)]
            case ("control", "toggle"?): return [ExploreStep(.attachment, [6], text: a.id)]
            case ("control", "slider"?): return [ExploreStep(.attachment, [7, round(unit())], text: a.id)]
            default: return nil
            }
        default: return [ExploreStep(.scrollBy, [round(viewport.1 / 2), duration(), 0])]
        }
    }
}
