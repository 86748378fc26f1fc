import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// What the engine needs of a reader comes with the document, so a test (or another reader)
/// replaces each piece: the format that reads inserted text and colours code, and a kind's work
/// at layout (the math typesetter). Without Markdown, cmark-gfm or the Python helper.
final class ReaderSeamTests: XCTestCase {
    /// A format that reads each line as a paragraph and colours every word "k".
    private struct LinesFormat: DocumentFormat {
        func paragraphs(of text: String, like document: TextDocument, kinds: AttachmentKinds) throws -> [TextParagraph] {
            text.split(separator: "\n").map { TextParagraph(id: ParagraphID(-1), kind: .body, text: String($0)) }
        }
        func language(ofInfo info: String) -> String? { info == "words" ? "words" : nil }
        func highlighted(_ bands: [TextParagraph], language: String, syncAfter: Int?) -> [TextParagraph]? {
            bands.map { band in
                let runs = band.text.utf8.count > 0 ? [AttributeRun(range: 0..<band.text.utf8.count, attributes: [AttributeVocabulary.syntaxClass: .string("k")])] : []
                return band.replacing(text: band.text, runs: band.runs, attachments: band.attachments, attributes: runs)
            }
        }
    }

    func testAFormatReadsInsertedTextAndColoursCodeAfterAnEdit() throws {
        let code = TextParagraph(id: ParagraphID(1), kind: .codeBlock(language: "words"), text: "let x")
        let document = TextDocument(paragraphs: [TextParagraph(id: ParagraphID(0), kind: .body, text: "Intro"), code], format: LinesFormat())
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
        XCTAssertEqual(try view.insertParagraphs(markdown: "one\ntwo", after: 0), 2, "the format's reading, not Markdown's")
        XCTAssertEqual(view.document.paragraphs.map(\.text), ["Intro", "one", "two", "let x"])
        try view.insertText(" = 1", inParagraphAt: 3, atCharacter: 5)
        let coloured = view.document.paragraphs[3]
        XCTAssertEqual(coloured.text, "let x = 1")
        XCTAssertEqual(coloured.attributes.first?.attributes[AttributeVocabulary.syntaxClass], .string("k"), "coloured again by the format")
        // A document with no reader refuses inserted text, with why.
        let plain = TextView(document: TextDocument(paragraphs: [code]), viewportSize: CGSize(width: 400, height: 300))
        XCTAssertThrowsError(try plain.insertParagraphs(markdown: "x", after: 0)) {
            XCTAssertTrue("\($0)".contains("has none to read inserted text with"), "\($0)")
        }
    }

    /// The math kind's `prepare` is the reader's unless the kinds given bring their own: a stub
    /// typesets every formula as a 30 × 12 box, and no helper process is asked.
    func testAKindsPrepareReplacesTheTypesetter() throws {
        var kinds = AttachmentKinds.standard
        kinds.kinds["math"]?.prepare = { formula in
            formula.with(size: CGSize(width: 30, height: 12), parameters: formula.parameters.merging([MathAttachment.pathKey: "M 0 0 L 30 0 Z"]) { $1 })
        }
        let incidents = HelperProcess.incidents.count
        let document = try TextDocument(markdown: "Inline $\\frac{a}{b}$ and $x$.", attachments: kinds)
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 200))
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        XCTAssertEqual(fragment.paragraph.attachments.map(\.size), [CGSize(width: 30, height: 12), CGSize(width: 30, height: 12)])
        XCTAssertEqual(HelperProcess.incidents.count, incidents)
        // The standard kinds have no typesetter until the reader installs its own.
        XCTAssertNil(AttachmentKinds.standard.kinds["math"]?.prepare)
        XCTAssertNotNil(AttachmentKinds.standard.typesettingMath().kinds["math"]?.prepare)
    }
}
