import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// A kind's work at layout (the math typesetter) is the reader's to install, and a test (or
/// another reader) replaces it. (The format's seam is tested in TextReelEngineTests, without
/// the reader at all.)
final class ReaderSeamTests: XCTestCase {
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
