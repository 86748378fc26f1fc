import Foundation
import XCTest
@testable import TextReel

/// The engine on its own: documents built from paragraphs and attributed strings, a reader's
/// seams filled by stubs. This target depends on TextReel alone (no Markdown reader, cmark-gfm,
/// Gumbo or Python helper), as code that builds its own paragraphs does.
final class EngineTests: XCTestCase {
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

    func testPlainTextInTheEditorLookIsSetLineUnderLine() throws {
        let text = "func main() {\n    print(\"hello\")\n\n    // a comment\n}\n"
        let document = TextDocument(attributedString: NSAttributedString(string: text))
        XCTAssertEqual(document.paragraphs.map(\.text), ["func main() {", "    print(\"hello\")", "", "    // a comment", "}", ""])
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300), theme: .editor)
        let pass = try view.layoutPass()
        let frames = pass.fragments.map(\.frame)
        XCTAssertEqual(frames.count, 6)
        for (above, below) in zip(frames, frames.dropFirst()) {
            XCTAssertEqual(below.y, above.y + above.height, accuracy: 0.01, "no space between paragraphs")
            XCTAssertEqual(below.height, frames[0].height, accuracy: 0.01, "every line, the empty ones too, as tall as the others")
        }
        XCTAssertEqual(frames[0].y, Theme.editor.insets.top)
    }
}
