import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Themes as files, text sizes and layout direction.
final class AppearanceTests: XCTestCase {
    func testThemeFilesOverABaseAndSayWhereTheyAreWrong() throws {
        let folder = Paths.temporaryFolder()
        let file = folder.appendingPathComponent("t.json5")
        try Data("{base: 'dark', bodySize: 17, link: '#79C0FF', insets: {left: 10}, attachments: {accent: '#123456'}}".utf8).write(to: file)
        let theme = try Theme(named: file.path)
        XCTAssertEqual(theme.background, Theme.dark.background)
        XCTAssertEqual(theme.bodySize, 17)
        XCTAssertEqual(theme.link, Color(hex: 0x79C0FF))
        XCTAssertEqual(theme.insets.left, 10)
        XCTAssertEqual(theme.attachments.accent, Color(hex: 0x123456))
        XCTAssertEqual(theme.attachments.knob, Theme.dark.attachments.knob)
        // Pango's colour parser: names, short and bare forms, exactly the same values as hex.
        XCTAssertEqual(Color(parsing: "navy"), Color(hex: 0x000080))
        XCTAssertEqual(Color(parsing: "#1F2328"), Color(hex: 0x1F2328))
        XCTAssertEqual(Color(parsing: "1F2328"), Color(hex: 0x1F2328))
        XCTAssertEqual(Color(parsing: "#FFF"), Color(hex: 0xFFFFFF))
        XCTAssertNil(Color(parsing: "#12345"))
        for (text, line, column, needle) in [("{\n  link: 'bluish'}", 2, 9, "not a colour"), ("{bodySize: 1000}", 1, 12, "too large"),
                                             ("{linkk: '#000000'}", 1, 2, "unknown key 'linkk'"), ("{base: 'sepia'}", 1, 8, "not a built-in theme")] {
            try Data(text.utf8).write(to: file)
            XCTAssertThrowsError(try Theme(named: file.path)) { error in
                let e = error as? TextReelError
                XCTAssertEqual(e?.line, line, "\(error)")
                XCTAssertEqual(e?.column, column, "\(error)")
                XCTAssertTrue(e?.message.contains(needle) == true, "\(error)")
            }
        }
        XCTAssertThrowsError(try Theme(named: "nonexistent-theme")) { XCTAssertTrue("\($0)".contains("light, dark or a JSON5 theme file"), "\($0)") }
    }

    func testTextSizesFollowUIKitsLadder() throws {
        XCTAssertEqual(TextSize(name: "XXXL"), .XXXL)
        XCTAssertEqual(TextSize(name: "extraLarge"), .XL)
        XCTAssertEqual(TextSize(name: "UIContentSizeCategoryAccessibilityExtraExtraExtraLarge"), .A5)
        XCTAssertEqual(TextSize(name: "accessibilityMedium"), .A1)
        XCTAssertNil(TextSize(name: "huge"))
        XCTAssertEqual(TextSize.M.factor, 1)
        XCTAssertEqual(TextSize.XXXL.factor, 23.0 / 16)
        let document = try TextDocument(markdown: "- a list item that wraps onto more than one line of text in a narrow view\n")
        func firstLine(_ size: TextSize) -> TextLineFragment {
            TextView(document: document, viewportSize: CGSize(width: 320, height: 400), theme: Theme().at(size))
                .textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments[0]
        }
        XCTAssertGreaterThan(firstLine(.A5).typographicBounds.height, firstLine(.M).typographicBounds.height * 2.5)
        XCTAssertLessThan(firstLine(.XS).typographicBounds.height, firstLine(.M).typographicBounds.height)
    }

    func testRightToLeftMirrorsIndentsAndMarkers() throws {
        let document = try TextDocument(markdown: "Short.\n\n- item\n")
        let width = 400.0
        let rtl = TextView(document: document, viewportSize: CGSize(width: width, height: 300), theme: Theme().with(.rightToLeft))
        let ltr = TextView(document: document, viewportSize: CGSize(width: width, height: 300))
        let r = rtl.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments[0].typographicBounds
        let l = ltr.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments[0].typographicBounds
        XCTAssertEqual(l.minX, 32, accuracy: 0.5, "left to right: at the left inset")
        XCTAssertEqual(r.maxX, width - 32, accuracy: 0.5, "right to left: at the right inset")
        let item = rtl.textLayoutManager.ensureLayout(forParagraphAt: 1).textLineFragments[0].typographicBounds
        XCTAssertEqual(item.maxX, width - 32, accuracy: 0.5, "the marker hangs at the right")
    }

    /// Views in different looks rendered one after another in one process give the bytes that
    /// separate renders give: nothing cached is shared between looks.
    func testInterleavedLooksEqualSeparateRuns() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        let looks = [Theme.light, Theme.dark.at(.XXXL), Theme.light.with(.rightToLeft), Theme.dark]
        func render(_ theme: Theme) throws -> Data {
            try TextView(document: document, viewportSize: CGSize(width: 375, height: 500), theme: theme).renderFrame().pngData()
        }
        let separate = try looks.map(render)
        var interleaved: [Data] = []
        for _ in 0..<2 { interleaved = try looks.map(render) }
        XCTAssertEqual(interleaved, separate)
        XCTAssertEqual(Set(separate).count, looks.count, "every look draws differently")
    }
}
