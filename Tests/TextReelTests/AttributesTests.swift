import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Paragraphs with attributes: Apple's Markdown syntax, NSAttributedString both ways, Pango drawing
/// them, the content storage and its delegate, and offsets in UTF-16 units.
final class AttributesTests: XCTestCase {
    func testAppleMarkdownAttributeSyntax() throws {
        let document = try TextDocument(markdown: "**Hot** ^[soup](commentDepth: 2, note: \"x\", spicy: true) *now*\n\n^[a](not json here) b")
        let p = document.paragraphs[0]
        XCTAssertEqual(p.text, "Hot soup now")
        XCTAssertEqual(p.attributes, [AttributeRun(range: 4..<8, attributes: ["commentDepth": .number(2), "note": .string("x"), "spicy": .bool(true)])])
        XCTAssertEqual(p.runs.map(\.range), [0..<3, 9..<12], "runs move with the text")
        XCTAssertEqual((p.attribute(NSAttributedString.Key("commentDepth"), at: 5, effectiveRange: nil) as? NSNumber)?.intValue, 2)
        XCTAssertNil(p.attribute(NSAttributedString.Key("commentDepth"), at: 9, effectiveRange: nil))
        XCTAssertEqual(document.paragraphs[1].text, "a b", "a list that is not JSON5 keeps its text, not its syntax")
        XCTAssertTrue(document.warnings.contains { $0.contains("not JSON5") }, "\(document.warnings)")
        // Attachments after it move too; an edit carries the attributes along.
        let withImage = try TextDocument(markdown: "^[é](k: 1) ![](video:v)").paragraphs[0]
        XCTAssertEqual(withImage.attachments[0].utf8Offset, 3)
        let edited = try withImage.inserting("x", atCharacter: 0)
        XCTAssertEqual(edited.attributes[0].range, 1..<3)
        // Paragraphs inserted by a script keep theirs (the explorer inserts such paragraphs).
        let view = TextView(document: document, viewportSize: CGSize(width: 300, height: 200))
        try view.insertParagraphs(markdown: "^[new](commentDepth: 1) one", after: -1)
        XCTAssertEqual(view.document.paragraphs[0].attributes.first?.attributes["commentDepth"], .number(1))
    }

    /// String values in either quote (which cmark reads as a link's title), and lists that are
    /// not JSON5 (NaN, Infinity, a broken list): never a literal `^`; a bad list warns at its
    /// line and column, in characters.
    func testEveryJSON5ValueAndAWarningForTheRest() throws {
        let doc = try TextDocument(markdown: "Say ^[hello](note: \"x\") and ^[q](note: 'y').\n\nThen éé ^[nan](commentDepth: NaN) and ^[bad](note: [1, ) end.\n")
        XCTAssertEqual(doc.paragraphs.map(\.text), ["Say hello and q.", "Then éé nan and bad end."])
        XCTAssertEqual(doc.paragraphs[0].attributes(at: 4)["note"], .string("x"))
        XCTAssertEqual(doc.paragraphs[0].attributes(at: 14)["note"], .string("y"))
        XCTAssertEqual(doc.paragraphs[0].runs, [], "not a link")
        XCTAssertEqual(doc.paragraphs[1].attributes, [])
        XCTAssertEqual(doc.warnings.count, 2, "\(doc.warnings)")
        XCTAssertTrue(doc.warnings[0].contains(":3:9: warning:") && doc.warnings[0].contains("NaN"), doc.warnings[0])
        XCTAssertTrue(doc.warnings[1].contains(":3:39: warning:"), doc.warnings[1])
        // In a code block the syntax is code: kept as written, no warning (found by the fuzzer: a
        // lazily read section that warned).
        let code = try TextDocument(markdown: "```\nc^[a](note: \"x\") ^[b](k: NaN)\n```\n")
        XCTAssertEqual(code.paragraphs.map(\.text), ["c^[a](note: \"x\") ^[b](k: NaN)"])
        XCTAssertEqual(code.warnings, [])
        let found = try Data(contentsOf: Paths.fixtures.appendingPathComponent("fuzz/FuzzMarkdown/attribute-syntax-in-a-fence-found.md"))
        let whole = try TextDocument(markdown: String(decoding: found, as: UTF8.self))
        XCTAssertEqual(whole.warnings, [], "\(whole.warnings)")
        // A real link with a title stays a link.
        XCTAssertEqual(try TextDocument(markdown: "[a](https://x.org \"T\")").paragraphs[0].runs.first?.link, "https://x.org")
    }

    func testAttributedStringsBothWaysAndDrawn() throws {
        let source = NSMutableAttributedString(string: "Red big\n")
        source.addAttributes([.foregroundColor: Color(1, 0, 0), .font: Font.systemFont(ofSize: 40)], range: NSRange(location: 0, length: 3))
        source.addAttribute(NSAttributedString.Key("custom"), value: "kept", range: NSRange(location: 4, length: 3))
        let paragraph = TextParagraph(attributedString: source)
        XCTAssertEqual(paragraph.text, "Red big", "the trailing break ends the paragraph")
        XCTAssertEqual(paragraph.attributedString.attribute(NSAttributedString.Key("custom"), at: 5, effectiveRange: nil) as? String, "kept")
        let document = try TextDocument(markdown: "Red big")
        let view = TextView(document: document, viewportSize: CGSize(width: 300, height: 120))
        let plain = view.textLayoutManager.ensureLayout(forParagraphAt: 0).layoutFragmentFrame.height
        final class Restyle: TextContentStorageDelegate {
            let paragraph: TextParagraph
            var asked: [NSRange] = []
            init(_ paragraph: TextParagraph) { self.paragraph = paragraph }
            func textContentStorage(_ textContentStorage: TextContentStorage, textParagraphWith range: NSRange) -> TextParagraph? {
                asked.append(range)
                return paragraph
            }
        }
        let delegate = Restyle(paragraph)
        view.textContentStorage!.delegate = delegate
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        XCTAssertGreaterThan(fragment.layoutFragmentFrame.height, plain + 20, "a 40 pt font")
        XCTAssertEqual(delegate.asked, [NSRange(location: 0, length: 7)], "asked once, for the paragraph's range")
        let line = fragment.textLineFragments[0].typographicBounds.offsetBy(dx: 0, dy: fragment.layoutFragmentFrame.minY)
        var red = 0
        for x in Int(line.minX)..<Int(line.minX + 60) {
            for y in Int(line.minY)..<Int(line.maxY) {
                let p = frame.pixel(x: x, y: y)
                if p.red > 200 && p.green < 60 && p.blue < 60 { red += 1 }
            }
        }
        XCTAssertGreaterThan(red, 50, "the foreground colour is drawn")
    }

    /// A code span's background reaches past its text on both sides (GitHub's padding), and the
    /// spaces beside it make room for it: the space before keeps a gap of the page's background.
    func testCodeSpansArePadded() throws {
        let view = TextView(document: try TextDocument(markdown: "See `sed` then more."), viewportSize: CGSize(width: 400, height: 100))
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let line = fragment.textLineFragments[0]
        let bounds = line.typographicBounds.offsetBy(dx: fragment.layoutFragmentFrame.minX, dy: fragment.layoutFragmentFrame.minY)
        let x = fragment.layoutFragmentFrame.minX
        let start = Int(x + line.locationForCharacter(at: 4).x), end = Int(x + line.locationForCharacter(at: 7).x)
        let y = Int(bounds.midY)
        let code = Theme().codeSpanBackground, page = Theme().background
        func isCode(_ x: Int) -> Bool {
            let p = frame.pixel(x: x, y: y)
            return abs(Int(p.red) - Int(code.red * 255)) < 3 && abs(Int(p.green) - Int(code.green * 255)) < 3 && abs(Int(p.blue) - Int(code.blue * 255)) < 3
        }
        XCTAssertTrue(isCode(start - 2), "padding before the code text")
        XCTAssertTrue(isCode(end + 2), "padding after it")
        let gap = frame.pixel(x: start - 6, y: y)
        XCTAssertEqual(gap.red, UInt8(page.red * 255), "the space before the span keeps the page's colour")
    }

    func testOffsetsCountUTF16WithOneForEachBreak() throws {
        let document = try TextDocument(markdown: "é😀x\n\nab\n\nlast")
        let view = TextView(document: document, viewportSize: CGSize(width: 300, height: 200))
        let manager = view.textLayoutManager
        let ids = document.paragraphs.map(\.id)
        let start = manager.documentRange.location
        XCTAssertEqual(manager.offset(from: start, to: TextLocation(paragraph: ids[1])), 5, "é 1 + 😀 2 + x 1 + break 1")
        XCTAssertEqual(manager.offset(from: TextLocation(paragraph: ids[2], offset: 2), to: start), -10)
        XCTAssertEqual(manager.location(start, offsetBy: 6), TextLocation(paragraph: ids[1], offset: 1))
        XCTAssertEqual(manager.location(start, offsetBy: 3), TextLocation(paragraph: ids[0], offset: 3), "after the emoji's 2 units: a location counts UTF-16 too")
        XCTAssertNil(manager.location(start, offsetBy: 2), "inside the emoji's surrogate pair")
        XCTAssertNil(manager.location(start, offsetBy: 100))
        let storage = try XCTUnwrap(view.textContentStorage?.textStorage)
        XCTAssertEqual(storage.length, 12)
        XCTAssertEqual(storage.attributedSubstring(from: NSRange(location: 4, length: 4)).string, "\nab\n")
        XCTAssertEqual(storage.string, "é😀x\nab\nlast")
        XCTAssertEqual(manager.documentRange.endLocation, TextLocation(paragraph: ids[2], offset: 4))
    }

    func testDocumentsFromAttributedStrings() throws {
        let source = NSMutableAttributedString(string: "One\nTwo red\n\nFour")
        source.addAttribute(.foregroundColor, value: Color(1, 0, 0), range: NSRange(location: 8, length: 3))
        let document = TextDocument(attributedString: source)
        XCTAssertEqual(document.paragraphs.map(\.text), ["One", "Two red", "", "Four"])
        XCTAssertEqual(document.paragraphs.map(\.id.rawValue), [0, 1, 2, 3])
        XCTAssertEqual(document.paragraphs[1].attributes, [AttributeRun(range: 4..<7, attributes: ["NSColor": .color(Color(1, 0, 0))])])

        var swift = AttributedString("Read the ")
        var link = AttributedString("menu")
        link.link = URL(string: "https://example.org/menu")
        swift.append(link)
        swift.append(AttributedString("\nthen order."))
        let fromSwift = TextDocument(swift) { run in run.link == nil ? [:] : [NSAttributedString.Key("commentDepth"): 1] }
        XCTAssertEqual(fromSwift.paragraphs.map(\.text), ["Read the menu", "then order."])
        XCTAssertEqual(fromSwift.paragraphs[0].attributes, [AttributeRun(range: 9..<13, attributes: [
            "NSLink": .string("https://example.org/menu"), "commentDepth": .number(1)])])
        let view = TextView(document: fromSwift, viewportSize: CGSize(width: 300, height: 200))
        XCTAssertNoThrow(try view.renderFrame())
    }

    /// A paragraph style's spacing is the paragraph's, as TextKit's: 0 before and after sets
    /// two paragraphs line under line (0 used to add to the look's 16); a style that does not
    /// set spacing (a reader's alignment) leaves the look's.
    func testAParagraphStylesSpacingReplacesTheLooks() throws {
        func gap(_ configure: (MutableParagraphStyle) -> Void) throws -> Double {
            let style = MutableParagraphStyle()
            configure(style)
            let text = NSMutableAttributedString(string: "First paragraph\nSecond paragraph")
            text.addAttribute(.paragraphStyle, value: style, range: NSRange(location: 0, length: text.length))
            let view = TextView(document: TextDocument(attributedString: text), viewportSize: CGSize(width: 300, height: 300))
            let first = view.textLayoutManager.ensureLayout(forParagraphAt: 0), second = view.textLayoutManager.ensureLayout(forParagraphAt: 1)
            let firstText = first.layoutFragmentFrame.minY + first.textLineFragments[0].typographicBounds.maxY
            return second.layoutFragmentFrame.minY + second.textLineFragments[0].typographicBounds.minY - firstText
        }
        XCTAssertEqual(try gap { $0.paragraphSpacing = 0; $0.paragraphSpacingBefore = 0 }, 0, accuracy: 0.5)
        XCTAssertEqual(try gap { $0.paragraphSpacing = 6; $0.paragraphSpacingBefore = 4 }, 10, accuracy: 0.5)
        XCTAssertEqual(try gap { $0.alignment = .center }, 0, accuracy: 0.5, "a style made in code sets spacing, 0 by default, as TextKit's")
        let markdown = try TextDocument(markdown: "<div align=\"center\">\n\nFirst\n\nSecond\n\n</div>\n")
        let view = TextView(document: markdown, viewportSize: CGSize(width: 300, height: 300))
        let a = view.textLayoutManager.ensureLayout(forParagraphAt: 0), b = view.textLayoutManager.ensureLayout(forParagraphAt: 1)
        XCTAssertGreaterThan(b.layoutFragmentFrame.minY + b.textLineFragments[0].typographicBounds.minY
                             - (a.layoutFragmentFrame.minY + a.textLineFragments[0].typographicBounds.maxY), 12, "the reader's centring keeps GitHub's 16")
    }

    func testParagraphStylesSetTheLines() throws {
        func fragment(_ configure: (MutableParagraphStyle) -> Void) throws -> TextLayoutFragment {
            let style = MutableParagraphStyle()
            configure(style)
            let text = NSMutableAttributedString(string: "Centred words that wrap onto a second line here")
            text.addAttribute(.paragraphStyle, value: style, range: NSRange(location: 0, length: text.length))
            let view = TextView(document: TextDocument(attributedString: text), viewportSize: CGSize(width: 300, height: 300))
            return view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        }
        let plain = try fragment { _ in }
        let left = plain.textLineFragments[1].typographicBounds
        let centred = try fragment { $0.alignment = .center }.textLineFragments[1].typographicBounds
        XCTAssertEqual(centred.midX, 150, accuracy: 1, "the second line is centred in the 236 pt column")
        XCTAssertLessThan(left.minX, centred.minX)
        let spaced = try fragment { $0.paragraphSpacing = 20; $0.lineSpacing = 10 }
        // Every style here sets the spacing, as TextKit's do: `plain`'s is 0 after, `spaced`'s 20.
        XCTAssertEqual(spaced.layoutFragmentFrame.height, plain.layoutFragmentFrame.height + 20 + 10 * Double(plain.textLineFragments.count - 1), accuracy: 1)
        let indented = try fragment { $0.firstLineHeadIndent = 40; $0.headIndent = 10; $0.tailIndent = -20 }
        XCTAssertEqual(indented.textLineFragments[0].typographicBounds.minX, left.minX + 40, accuracy: 0.5)
        XCTAssertEqual(indented.textLineFragments[1].typographicBounds.minX, left.minX + 10, accuracy: 0.5)
        XCTAssertLessThanOrEqual(indented.textLineFragments.map(\.typographicBounds.maxX).max()!, 300 - 32 - 20 + 0.5)
        // A line height multiple makes every line that much taller than the font's own height
        // (TextKit's multiple of the natural line height), the text in its middle.
        let tall = try fragment { $0.lineHeightMultiple = 2 }
        let natural = try fragment { $0.lineHeightMultiple = 1 }
        XCTAssertEqual(tall.textLineFragments.count, natural.textLineFragments.count)
        for (line, base) in zip(tall.textLineFragments, natural.textLineFragments) {
            XCTAssertEqual(line.typographicBounds.height, 2 * base.typographicBounds.height, accuracy: 1)
            XCTAssertEqual(line.glyphOrigin.y - line.typographicBounds.minY, base.glyphOrigin.y - base.typographicBounds.minY + base.typographicBounds.height / 2, accuracy: 1)
        }
    }
}
