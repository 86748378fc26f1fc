import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// ` ```mermaid ` blocks are drawn as GitHub draws them, by mermaid.js: in each look's colours,
/// only when shown, the same bytes every time; one mermaid refuses is its source and the reason.
final class DiagramTests: XCTestCase {
    static let flowchart = """
    flowchart TD
        A[Start] --> B{Is it working?}
        B -- Yes --> C[Ship it]
        B -- No --> D[Debug]
    """

    override func setUpWithError() throws {
        _ = try Tools.require("chromium")
        if MermaidDiagrams.script == nil {
            let message = "mermaid.js is not installed (make setup fetches it)"
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
    }

    /// How many pixels of `frame` inside `box` are `color` (within a step of rounding).
    private func count(_ color: (Int, Int, Int), in frame: RenderedFrame, box: CGRect) -> Int {
        var found = 0
        for y in Int(box.minY)..<Int(box.maxY) {
            for x in Int(box.minX)..<Int(box.maxX) {
                let p = frame.pixel(x: x, y: y)
                if abs(Int(p.red) - color.0) <= 1, abs(Int(p.green) - color.1) <= 1, abs(Int(p.blue) - color.2) <= 1 { found += 1 }
            }
        }
        return found
    }

    /// The diagram of paragraph `index` as laid out, with its box in the frame.
    private func diagram(in view: TextView, paragraph index: Int) throws -> (TextAttachment, CGRect) {
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: index)
        let shown = try XCTUnwrap(fragment.paragraph.attachments.first { $0.shows(inDarkLook: view.theme.isDark) })
        let box = try XCTUnwrap(fragment.frameForTextAttachment(id: shown.id)).offsetBy(dx: 0, dy: fragment.layoutFragmentFrame.minY)
        return (shown, box)
    }

    /// A flowchart is an SVG of mermaid's, as wide as mermaid made it, centred, its boxes in
    /// mermaid's colours for the look: lavender in light looks, charcoal in dark ones.
    func testAMermaidBlockIsDrawnInTheLooksColours() throws {
        let markdown = "Before.\n\n```mermaid\n\(Self.flowchart)\n```\n\nAfter.\n"
        let document = try TextDocument(markdown: markdown)
        XCTAssertEqual(document.paragraphs.count, 3)
        XCTAssertEqual(document.paragraphs[1].attachments.map(\.id), ["diagram-1", "diagram-1-dark"])
        XCTAssertEqual(document.paragraphs[1].attachments.map(\.altText), [Self.flowchart, Self.flowchart], "the source as written")
        for (theme, node, other) in [(Theme.light, (0xEC, 0xEC, 0xFF), (0x1F, 0x20, 0x20)), (Theme.dark, (0x1F, 0x20, 0x20), (0xEC, 0xEC, 0xFF))] {
            let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 700), theme: theme)
            let frame = try view.renderFrame()
            let (shown, box) = try diagram(in: view, paragraph: 1)
            XCTAssertNil(shown.problem)
            let svg = try XCTUnwrap(shown.parameters[DiagramAttachment.svgKey])
            XCTAssertTrue(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg width="), "the SVG gives its own size")
            XCTAssertGreaterThan(shown.size.width, 150)
            XCTAssertGreaterThan(shown.size.height, 250)
            XCTAssertEqual(box.midX, 400, accuracy: 1, "centred in the 800 pt view")
            XCTAssertGreaterThan(count(node, in: frame, box: box), 2_000, "\(theme.isDark ? "dark" : "light"): the boxes are filled in the look's colour")
            XCTAssertEqual(count(other, in: frame, box: box), 0, "and never in the other look's")
            XCTAssertTrue(try view.layoutPass().fragments.allSatisfy(\.warnings.isEmpty))
        }
    }

    /// What mermaid refuses is drawn as its source under mermaid's reason, with a warning in the
    /// pass that laid it out; the document's text and layout go on.
    func testADiagramMermaidRefusesIsItsSourceAndTheReason() throws {
        let source = "graph TD\n  A -->"
        let document = try TextDocument(markdown: "```mermaid\n\(source)\n```\n\nAfter.\n")
        let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 300))
        let frame = try view.renderFrame()
        let pass = try view.layoutPass()
        let warning = try XCTUnwrap(pass.fragments.first?.warnings.first)
        XCTAssertTrue(warning.hasPrefix("mermaid diagram: Parse error on line"), warning)
        XCTAssertTrue(warning.hasSuffix("drawn as its source ('graph TD   A -->')"), warning)
        let (shown, box) = try diagram(in: view, paragraph: 0)
        XCTAssertNil(shown.parameters[DiagramAttachment.svgKey])
        XCTAssertEqual(shown.size, DiagramAttachment.sourceSize(of: source, reason: shown.problem))
        // The box is the code block's colour, with the source's ink on it.
        let background = view.theme.codeBackground
        let code = (Int((background.red * 255).rounded()), Int((background.green * 255).rounded()), Int((background.blue * 255).rounded()))
        XCTAssertGreaterThan(count(code, in: frame, box: box), Int(box.width * box.height / 2))
        XCTAssertEqual(pass.fragments.count, 2, "the paragraph after it is laid out")
    }

    /// A diagram is drawn when its paragraph is first laid out: one far below the first frame
    /// costs nothing until it is shown, and the look it is not shown in is never drawn.
    func testADiagramIsDrawnOnlyWhenShownAndOnlyInItsLook() throws {
        let unique = "flowchart LR\n  Q\(ProcessInfo.processInfo.processIdentifier) --> R\(Int(Date().timeIntervalSince1970 * 1000) % 100_000)"
        let paragraphs = (1...300).map { "Paragraph \($0) of text." }.joined(separator: "\n\n")
        let document = try TextDocument(markdown: paragraphs + "\n\n```mermaid\n\(unique)\n```\n")
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 400))
        let before = MermaidDiagrams.drawings
        _ = try view.renderFrame()
        XCTAssertEqual(MermaidDiagrams.drawings, before, "nothing drawn for a diagram below the first frame")
        let last = view.textLayoutManager.paragraphCount - 1
        let (shown, _) = try diagram(in: view, paragraph: last)
        XCTAssertNotNil(shown.parameters[DiagramAttachment.svgKey])
        XCTAssertEqual(MermaidDiagrams.drawings, before + 1, "one drawing: the light look's")
        let hidden = try XCTUnwrap(view.textLayoutManager.ensureLayout(forParagraphAt: last).paragraph.attachments.last)
        XCTAssertEqual(hidden.id, "diagram-1-dark")
        XCTAssertNil(hidden.parameters[DiagramAttachment.svgKey], "the dark look's copy is not drawn in a light view")
    }

    /// The same source gives the same SVG bytes, drawn in this process or another, whatever was
    /// drawn before it (a counted id once named the order diagrams were shown in).
    func testADiagramIsTheSameBytesEveryTime() throws {
        let sources = ["pie title Pets\n  \"Dogs\" : 386\n  \"Cats\" : 85", "sequenceDiagram\n  Alice->>John: Hello\n  John-->>Alice: Hi"]
        let stamp = "%% \(ProcessInfo.processInfo.processIdentifier)-\(Int(Date().timeIntervalSince1970 * 1000))"
        var first: [String] = []
        for source in sources {
            guard case .success(let drawn) = MermaidDiagrams.draw(source + "\n" + stamp, theme: "default") else { return XCTFail("not drawn") }
            first.append(try String(contentsOf: drawn.file, encoding: .utf8))
        }
        // In reverse order, by another process (the CLI), from nothing kept on disk.
        let folder = Paths.temporaryFolder()
        let markdown = sources.reversed().map { "```mermaid\n\($0)\n\(stamp)\n```" }.joined(separator: "\n\n")
        try Data(markdown.utf8).write(to: folder.appendingPathComponent("d.md"))
        let cache = folder.appendingPathComponent("cache")
        let run = try CLI.run(["render", folder.appendingPathComponent("d.md").path, "--out", folder.appendingPathComponent("out").path, "--quiet"],
                              environment: ["TEXTREEL_FONT_CACHE": cache.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let drawn = try FileManager.default.contentsOfDirectory(at: cache.appendingPathComponent("diagrams-\(MermaidDiagrams.version)"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "svg" }.map { try String(contentsOf: $0, encoding: .utf8) }
        XCTAssertEqual(Set(drawn), Set(first), "the same SVGs, drawn in the other order by another browser")
    }

    /// A diagram's ids count diagrams in document order, whether the document is read whole or
    /// in sections opened later: the scan leaves a section holding a diagram to a parse.
    func testDiagramsAreNumberedTheSameReadWholeOrInSections() throws {
        let markdown = (1...40).map { k in
            k % 10 == 0 ? "```mermaid\ngraph LR\n  A\(k) --> B\n```" : "Paragraph \(k) of text, long enough to fill a section."
        }.joined(separator: "\n\n")
        let whole = try TextDocument(markdownData: Data(markdown.utf8), sectionBytes: 0)
        let sections = try TextDocument(markdownData: Data(markdown.utf8), sectionBytes: 64)
        XCTAssertEqual(Array(sections.paragraphs), Array(whole.paragraphs))
        XCTAssertEqual(whole.paragraphs.flatMap(\.attachments).map(\.id).filter { !$0.hasSuffix("-dark") }, ["diagram-1", "diagram-2", "diagram-3", "diagram-4"])
    }
}
