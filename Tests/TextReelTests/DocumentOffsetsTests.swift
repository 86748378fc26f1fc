import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// The document-wide UTF-16 offsets TextKit code counts (`offset(from:to:)`, the content
/// storage's ranges) are read incrementally: an offset near the top reads no section further
/// down, and edits keep every offset equal to a count made from scratch.
final class DocumentOffsetsTests: XCTestCase {
    /// Offsets from the paragraphs' texts, counted anew: where each paragraph starts.
    private func counted(_ document: TextDocument) -> [Int] {
        var starts: [Int] = [], at = 0
        for paragraph in document.paragraphs {
            starts.append(at)
            at += paragraph.text.utf16.count + 1
        }
        return starts
    }

    func testAnOffsetNearTheTopReadsNoSectionBelow() throws {
        // Large enough that the view's height sample (64 paragraphs) leaves most sections unread.
        let document = try TextDocument(markdown: TextDocument.generatedMarkdown(paragraphs: 20_000))
        XCTAssertGreaterThan(document.reading.sections, 200)
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
        let manager = view.textLayoutManager
        let tenth = TextLocation(paragraph: document.paragraphs[10].id)
        // The height sample is read on another thread; its parses are done before counting.
        _ = manager.documentHeight
        let parsesBefore = document.reading.lazyParses
        let expected = (0..<10).reduce(0) { $0 + document.paragraphs[$1].text.utf16.count + 1 }
        XCTAssertEqual(manager.offset(from: manager.documentRange.location, to: tenth), expected)
        XCTAssertLessThanOrEqual(document.reading.lazyParses, parsesBefore + 1, "the paragraphs above the tenth are in the first section")
        XCTAssertLessThan(document.reading.lazyParses, document.reading.sections / 2, "the document is not read whole")
        XCTAssertEqual(view.textContentStorage?.textStorage?.length, counted(document).last! + document.paragraphs.last!.text.utf16.count,
                       "the whole length reads every paragraph, as it must")
    }

    /// Random edits (typing, deleting, Return, joins, removed and inserted paragraphs), text with
    /// emoji and accents: after each, every paragraph's offset, the whole length and the way
    /// back from an offset to a location agree with a count made from scratch.
    func testOffsetsFollowEveryEdit() throws {
        let texts = ["plain words", "é😀x", "👨‍👩‍👧 family", "日本語のテキスト", "a\u{301}b", ""]
        let markdown = (0..<40).map { texts[$0 % texts.count].isEmpty ? "x" : texts[$0 % texts.count] }.joined(separator: "\n\n")
        let view = TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 400, height: 300))
        let manager = view.textLayoutManager
        var random = SplitMix(seed: 7)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        for step in 0..<120 {
            let document = view.document
            let index = pick(document.count)
            switch pick(5) {
            case 0: try view.insertText(texts[pick(texts.count)], inParagraphAt: index, atCharacter: pick(document.paragraphs[index].characterCount + 1))
            case 1:
                let count = document.paragraphs[index].characterCount
                if count > 0 { try view.deleteText(inParagraphAt: index, fromCharacter: pick(count), length: 1) }
            case 2: try view.splitParagraph(at: index, offset: document.paragraphs[index].utf16Offset(ofCharacter: pick(document.paragraphs[index].characterCount + 1))!)
            case 3: if index + 1 < document.count { try view.joinParagraph(at: index) }
            default: if document.count > 2 { try view.deleteParagraph(at: index) }
            }
            // Ask about a paragraph first (a prefix known), then check every one.
            let probe = pick(view.document.count)
            _ = manager.offset(from: manager.documentRange.location, to: TextLocation(paragraph: view.document.paragraphs[probe].id))
            let starts = counted(view.document)
            let start = manager.documentRange.location
            for (k, paragraph) in view.document.paragraphs.enumerated() {
                let location = TextLocation(paragraph: paragraph.id, offset: paragraph.text.utf16.count)
                XCTAssertEqual(manager.offset(from: start, to: location), starts[k] + paragraph.text.utf16.count, "step \(step), paragraph \(k)")
                XCTAssertEqual(manager.location(start, offsetBy: starts[k]), TextLocation(paragraph: paragraph.id), "step \(step), paragraph \(k)")
            }
            let last = view.document.paragraphs[view.document.count - 1]
            XCTAssertEqual(view.textContentStorage?.textStorage?.length, starts[starts.count - 1] + last.text.utf16.count, "step \(step)")
        }
    }
}
