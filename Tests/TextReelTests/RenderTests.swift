import Synchronization
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

final class RenderTests: XCTestCase {
    func testSameInputGivesByteIdenticalPNGs() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        func render() throws -> Data {
            let view = TextView(document: document, viewportSize: CGSize(width: 640, height: 480), scale: 2)
            view.contentOffset = CGPoint(x: 0, y: 700)
            return try view.renderFrame().pngData()
        }
        let a = try render(), b = try render()
        XCTAssertEqual(a, b)
        XCTAssertGreaterThan(a.count, 10_000)
    }

    func testFrameHasViewportTimesScalePixels() throws {
        let view = TextView(document: try TextDocument(markdown: "Hello"), viewportSize: CGSize(width: 300, height: 200), scale: 2)
        let frame = try view.renderFrame()
        XCTAssertEqual(frame.width, 600)
        XCTAssertEqual(frame.height, 400)
        // Text is dark ink on the white background somewhere in the first line.
        let ink = (0..<200).flatMap { x in (40..<90).map { y in frame.pixel(x: x, y: y) } }.filter { $0.red < 100 }
        XCTAssertFalse(ink.isEmpty)
    }

    func testRealImagesAreDrawnAndMissingOnesGetAPlaceholder() throws {
        let document = try TextDocument(markdown: "![](media/photo.png)\n\n![](media/missing.png)", baseURL: Paths.fixtures.appendingPathComponent("documents"))
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 500))
        let frame = try view.renderFrame()
        let image = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let box = image.attachmentFrames[0].frame.offsetBy(dx: 0, dy: image.layoutFragmentFrame.minY)
        // The photo's sky is blue near its top-left corner.
        let sky = frame.pixel(x: Int(box.minX) + 10, y: Int(box.minY) + 5)
        XCTAssertGreaterThan(Int(sky.blue), Int(sky.red) + 60)
        let missing = view.textLayoutManager.ensureLayout(forParagraphAt: 1)
        let placeholder = missing.attachmentFrames[0].frame.offsetBy(dx: 0, dy: missing.layoutFragmentFrame.minY)
        XCTAssertEqual(placeholder.size, CGSize(width: 160, height: 120))
        let fill = frame.pixel(x: Int(placeholder.minX) + 8, y: Int(placeholder.minY) + 8)
        XCTAssertEqual(fill.red, 0xFD, "the missing-image placeholder's tint")
    }

    /// A `<kbd>` is a key cap, as GitHub draws it: a box with a border, apart from the next key
    /// even with only a `+` between them; a code span is no key.
    func testKeysAreKeyCaps() throws {
        func boxes(_ markdown: String) throws -> (boxes: [PangoLayoutBox.CodeSpanBox], frame: RenderedFrame, origin: CGPoint, view: TextView) {
            let view = TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 400, height: 100))
            let frame = try view.renderFrame()
            let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
            let shaped = try XCTUnwrap(fragment.shaped)
            let origin = CGPoint(x: fragment.layoutFragmentFrame.minX + shaped.layoutOrigin.x, y: fragment.layoutFragmentFrame.minY + shaped.layoutOrigin.y)
            return (shaped.layout.codeSpanBoxes(), frame, origin, view)
        }
        let keys = try boxes("<kbd>Ctrl</kbd>+<kbd>C</kbd> to copy")
        XCTAssertEqual(keys.boxes.map(\.isKey), [true, true])
        XCTAssertTrue(keys.boxes.allSatisfy { $0.padsBefore && $0.padsAfter }, "padded beside the +")
        let padding = AttributeListBuilder.codePadding(keys.view.theme)
        XCTAssertGreaterThan(keys.boxes[1].rect.minX - keys.boxes[0].rect.maxX - 2 * padding, 6, "the + between the boxes, not under them")
        // The border: darker than the box's fill along the box's left side, mid-height.
        let key = keys.boxes[1].rect
        let left = Int((keys.origin.x + key.minX - padding).rounded(.down)), y = Int(keys.origin.y + key.midY)
        let edge = (left - 1...left + 1).map { Int(keys.frame.pixel(x: $0, y: y).red) }.min()!
        let fill = Int(keys.frame.pixel(x: left + 4, y: y).red)
        XCTAssertLessThan(edge + 12, fill, "a border around the fill")
        XCTAssertEqual(try boxes("`Ctrl`+`C` to copy").boxes.map(\.isKey), [false, false])
        // A word right after a key stays whole: its letters as far apart as elsewhere ("n ext").
        let view = TextView(document: try TextDocument(markdown: "<kbd>Shift</kbd>next and next"), viewportSize: CGSize(width: 400, height: 100))
        let line = try XCTUnwrap(view.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments.first)
        let text = view.textLayoutManager.document.paragraphs[0].text as NSString
        let first = text.range(of: "next").location, second = text.range(of: "next", options: .backwards).location
        func advance(_ at: Int) -> Double { line.locationForCharacter(at: at + 1).x - line.locationForCharacter(at: at).x }
        XCTAssertEqual(advance(first), advance(second), accuracy: 0.01, "n to e after the key as in the plain word")
    }

    /// Emphasis in a script whose font has no italic face is slanted, as browsers slant it:
    /// `*强调*` differs from `强调` (Pango drew both alike), and colour emoji stay as they are.
    func testEmphasisSlantsScriptsWithoutItalicFaces() throws {
        func pixels(_ markdown: String) throws -> Data {
            let frame = try TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 200, height: 60)).renderFrame()
            return Data((0..<60).flatMap { y in (0..<200).flatMap { x in let p = frame.pixel(x: x, y: y); return [p.red, p.green, p.blue] } })
        }
        for text in ["强调", "強調", "기울임", "عربي"] {
            XCTAssertNotEqual(try pixels("*\(text)*"), try pixels(text), text)
        }
        XCTAssertEqual(try pixels("*😀*"), try pixels("😀"), "a colour emoji is not slanted")
    }

    /// A missing image's placeholder says what it shows (its alt text) before why, as a browser
    /// shows a broken image; without alt text, its id.
    func testAMissingImageSaysItsAltText() throws {
        let document = try TextDocument(markdown: "![Screenshot of the app](missing.png)\n\n![](gone.png)", baseURL: Paths.temporaryFolder())
        let attachments = document.paragraphs.flatMap(\.attachments)
        let descriptor = try XCTUnwrap(AttachmentProviders().descriptor(forScheme: "image"))
        XCTAssertEqual(attachments.map { AttachmentPainter.caption($0, descriptor) },
                       ["Screenshot of the app · not found · 160×120", "not found · image-2 · 160×120"])
    }

    func testAbsoluteOffsetLandsExactly() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 600))
        view.contentOffset = CGPoint(x: 0, y: 900)
        _ = try view.renderFrame()
        XCTAssertEqual(view.contentOffset.y, 900)
        XCTAssertEqual(view.lastCorrection, 0)
    }

    /// `exact` measures every paragraph above the target, however far: a paragraph lands at the
    /// same y whichever exact target shows it (beyond 4,000 paragraphs it landed up to 335 pt
    /// apart; found by a new-user helper).
    /// A target past the end shows the end, however far the estimates below were off (on
    /// 20,000 paragraphs the frame stopped 153 pt short of it; found by a new-user helper).
    func testATargetPastTheEndShowsTheEnd() throws {
        let view = TextView(document: TextDocument.generated(paragraphs: 20_000), viewportSize: CGSize(width: 800, height: 600))
        view.scroll(toY: 1e9, exact: false)
        _ = try view.renderFrame()
        let manager = view.textLayoutManager
        let last = manager.paragraphCount - 1
        XCTAssertTrue(manager.isMeasured(paragraphAt: last))
        XCTAssertEqual(view.contentOffset.y, view.maximumContentOffset, accuracy: 0.5)
        XCTAssertEqual(manager.y(ofParagraphAt: last) + manager.height(ofParagraphAt: last) + view.theme.insets.bottom,
                       view.contentOffset.y + 600, accuracy: 0.5, "the last paragraph ends at the bottom of the view")
    }

    func testExactMeasuresEveryParagraphAbove() throws {
        let document = TextDocument.generated(paragraphs: 9000, attachments: false)
        var views: [TextView] = []
        for target in [640_000.0, 640_400.0] {
            let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 600))
            view.scroll(toY: target, exact: true)
            _ = try view.renderFrame()
            let manager = view.textLayoutManager
            let index = manager.paragraph(at: target).index
            XCTAssertGreaterThan(index, 4000)
            XCTAssertTrue((0...index).allSatisfy { manager.isMeasured(paragraphAt: $0) }, "every paragraph above is measured")
            XCTAssertEqual(view.contentOffset.y, target, accuracy: 0.01)
            views.append(view)
        }
        let shared = views[0].textLayoutManager.paragraph(at: 640_000).index
        XCTAssertEqual(views[0].textLayoutManager.y(ofParagraphAt: shared), views[1].textLayoutManager.y(ofParagraphAt: shared),
                       "a paragraph is at one place whichever exact target shows it")
    }
}

final class RepeatedFrameTests: XCTestCase {
    /// Frames made of the same surfaces at the same places are neither drawn nor encoded again,
    /// and their bytes equal a drawn frame's.
    func testWaitsReuseTheLastFrame() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        let script = try ScrollScript(data: Data("{steps: [{wait: 0.2}, {scroll: {by: 120, duration: 0.1}}, {wait: 0.2}]}".utf8))
        let view = TextView(document: document, viewportSize: CGSize(width: 640, height: 480))
        var frames: [RenderedFrame] = []
        try ScriptRunner(view: view, script: script).run { _, frame, _ in frames.append(frame!) }
        let repeats = frames.map(\.isRepeat)
        XCTAssertTrue(repeats.contains(true), "waits repeat frames")
        XCTAssertFalse(repeats[0])
        // The scroll's frames are drawn; once it ends, the waits repeat.
        XCTAssertEqual(repeats.suffix(3), [true, true, true])
        for (a, b) in zip(frames, frames.dropFirst()) where b.isRepeat {
            XCTAssertEqual(try a.pngData(), try b.pngData())
        }
        let fresh = TextView(document: document, viewportSize: CGSize(width: 640, height: 480))
        let last = try ScriptRunner(view: fresh, script: script)
        var lastDrawn: Data?
        try last.run(drawing: frames.count...frames.count) { _, frame, _ in if let frame { lastDrawn = try frame.pngData() } }
        XCTAssertEqual(lastDrawn, try frames.last!.pngData(), "a frame drawn alone equals its repeat")
    }
}

final class FontCacheTests: XCTestCase {
    /// The font set-up read from fontconfig's cache gives the same bytes as adding every file,
    /// and a font file that changes is scanned again (fontconfig checks its time).
    func testCachedFontsGiveTheSamePixels() throws {
        let cache = Paths.temporaryFolder()
        func render(_ setting: String) throws -> Data {
            let out = Paths.temporaryFolder("render-\(setting.hashValue)")
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["render", "Fixtures/documents/emoji.md", "--out", out.path, "--quiet", "--scale", "2"]
            process.currentDirectoryURL = Paths.root
            process.environment = ProcessInfo.processInfo.environment.merging(["TEXTREEL_FONT_CACHE": setting]) { _, new in new }
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            return try Data(contentsOf: out.appendingPathComponent("frame-00001.png"))
        }
        let uncached = try render("off")
        XCTAssertEqual(try render(cache.path), uncached, "first run, writing the cache")
        XCTAssertEqual(try render(cache.path), uncached, "later runs, reading it")
        let caches = try FileManager.default.subpathsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".cache-8") || $0.contains(".cache-") }
        XCTAssertFalse(caches.isEmpty, "fontconfig wrote its cache")
    }

    /// Once fonts are set up, fontconfig's current configuration is TextReel's own: Pango's
    /// start-up thread then loads nothing of the machine's, and SVG text (Pango's default font
    /// map) can use only the font set's files.
    func testTheCurrentFontConfigurationHoldsOnlyTheFontSet() throws {
        _ = try TextView(document: try TextDocument(markdown: "Fonts"), viewportSize: CGSize(width: 200, height: 100)).renderFrame()
        let config = try XCTUnwrap(FcConfigGetCurrent())
        var files = Set<String>()
        for set in [FcSetSystem, FcSetApplication] {
            guard let fonts = FcConfigGetFonts(config, set) else { continue }
            for i in 0..<Int(fonts.pointee.nfont) {
                var file: UnsafeMutablePointer<FcChar8>?
                if FcPatternGetString(fonts.pointee.fonts[i], FC_FILE, 0, &file) == FcResultMatch, let file {
                    files.insert(URL(fileURLWithPath: String(cString: file)).resolvingSymlinksInPath().path)
                }
            }
        }
        XCTAssertEqual(files, Set(FontSet.standard.files.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }))
    }
}

import CPango

/// The one PNG decoder draws pictures as Cairo's own reader did: straight RGBA premultiplied with
/// Cairo's rounding, opaque pictures as RGB24.
final class PNGDecoderTests: XCTestCase {
    /// The fast path (libdeflate, filters undone here) gives libpng's pixels for every filter
    /// type: libpng's own writer picks filters per row (Sub, Up, Average, Paeth), TextReel's
    /// small mode writes Up, its fast mode None; RGB and RGBA.
    func testTheFastDecoderGivesLibpngsPixelsForEveryFilter() throws {
        let view = TextView(document: try TextDocument(markdown: "# Filters\n\nSome *text* with 👨‍👩‍👧 and نص.\n\n> quoted"),
                            viewportSize: CGSize(width: 300, height: 180), scale: 2)
        let frame = try view.renderFrame()
        let width = 61, height = 23
        var translucent = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) { for c in 0..<4 { translucent[i * 4 + c] = UInt8((i * (7 + c * 6) + c * 40) % 256) } }
        let files: [(String, Data)] = [("libpng", try frame.libpngData()), ("small", try frame.pngData(compression: .small)),
                                       ("fast", try frame.pngData(compression: .fast)), ("rgba", try PNGWriter.encodeRGBA(translucent, width: width, height: height))]
        for (name, data) in files {
            let fast = try XCTUnwrap(PNGFastDecoder.decode(data, maximumPixels: 1 << 24), "\(name) takes the fast path")
            let reference = try PNGDecoder.decodeWithLibpng(data, maximumPixels: 1 << 24)
            XCTAssertEqual(fast.width, reference.width, name)
            XCTAssertEqual(fast.rgba, reference.rgba, "\(name): the same pixels")
            // And so does the reader that decodes a few rows at a time, whatever the rows asked for.
            for chunk in [1, 2, 5, reference.height] {
                let reader = try XCTUnwrap(PNGRowReader(data, maximumPixels: 1 << 24))
                var rows = [UInt8](repeating: 0, count: reference.rgba.count)
                var y = 0
                while y < reader.height {
                    let count = min(chunk + y % 3, reader.height - y)
                    XCTAssertTrue(rows.withUnsafeMutableBufferPointer { reader.read(count, into: $0.baseAddress! + y * reader.width * 4) })
                    y += count
                }
                XCTAssertTrue(reader.finish(), "\(name): the stream ends with the last row")
                XCTAssertEqual(rows, reference.rgba, "\(name), \(chunk) rows at a time: the same pixels")
            }
        }
        XCTAssertNil(PNGFastDecoder.decode(Data([0x89, 0x50, 0x4E, 0x47]), maximumPixels: 100), "not a PNG: libpng says why")
        // Found by the fuzzer: a header of 0xC5C5C5C5 × 0xC5C5C5C5 overflowed the multiplication.
        let overflow = try Data(contentsOf: Paths.fixtures.appendingPathComponent("fuzz/regressions/png-fast-decoder-size-overflow.png"))
        XCTAssertNil(PNGFastDecoder.decode(overflow, maximumPixels: 1 << 24))
        XCTAssertThrowsError(try PNGDecoder.decode(overflow, maximumPixels: 1 << 24))
    }

    /// An RGBA image of several compression pieces (a diff image of a large frame) is one valid
    /// zlib stream: libpng (which checks the Adler-32) and the fast path read it back the same,
    /// the bytes do not depend on the cores, and the fast path's in-place inflate keeps every row.
    func testALargeImageCompressedInPiecesReadsBackExactly() throws {
        let width = 1100, height = 2000   // 8.8 MB of rows: nine pieces, the last one short
        XCTAssertGreaterThan((width * 4 + 1) * height, 2 * PNGWriter.isalPieceBytes)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in stride(from: 0, to: width * height, by: 1) where i % 97 < 40 {
            pixels[i * 4] = UInt8(i % 251); pixels[i * 4 + 1] = UInt8(i / width % 256); pixels[i * 4 + 3] = UInt8(i % 7 * 36)
        }
        let data = try PNGWriter.encodeRGBA(pixels, width: width, height: height)
        XCTAssertEqual(try PNGWriter.encodeRGBA(pixels, width: width, height: height), data, "the same bytes again")
        XCTAssertEqual(try PNGDecoder.decodeWithLibpng(data, maximumPixels: 1 << 24).rgba, pixels, "libpng reads the pieces")
        XCTAssertEqual(try XCTUnwrap(PNGFastDecoder.decode(data, maximumPixels: 1 << 24)).rgba, pixels, "and so does the fast path")
        let opaque = pixels.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
        let rgbFile = try RenderedFrame(surface: CairoSurface(rgba: opaque, width: width, height: height, hasAlpha: false)).libpngData()
        let rgb = try XCTUnwrap(PNGFastDecoder.decode(rgbFile, maximumPixels: 1 << 24))
        XCTAssertEqual(rgb.rgba, opaque, "an RGB file (libpng's filters, varied by row) inflated into the end of its RGBA buffer")
    }

    /// A row whose filter type does not exist, in a sound zlib stream: the reader fails on it
    /// and never finishes, whatever comes after.
    func testTheRowReaderStopsAtAnUnknownFilter() throws {
        let width = 5, height = 4
        var scanlines = [UInt8](repeating: 90, count: (width * 3 + 1) * height)
        for y in 0..<height { scanlines[y * (width * 3 + 1)] = y == 2 ? 7 : 0 }
        var png = PNGWriter.start(width: width, height: height, colorType: 2)
        PNGWriter.appendChunk("IDAT", try PNGWriter.stream(scanlines, height: height, compression: .fast), to: &png)
        PNGWriter.appendChunk("IEND", [], to: &png)
        let reader = try XCTUnwrap(PNGRowReader(png, maximumPixels: 100))
        var rows = [UInt8](repeating: 0, count: width * 4 * height)
        XCTAssertTrue(rows.withUnsafeMutableBufferPointer { reader.read(2, into: $0.baseAddress!) })
        XCTAssertFalse(rows.withUnsafeMutableBufferPointer { reader.read(1, into: $0.baseAddress!) }, "filter type 7")
        XCTAssertFalse(rows.withUnsafeMutableBufferPointer { reader.read(1, into: $0.baseAddress!) }, "and nothing after it")
        XCTAssertFalse(reader.finish())
        XCTAssertNil(PNGFastDecoder.decode(png, maximumPixels: 100), "the whole decoder refuses it too")
    }

    /// When an image's rows cannot be made (a diff whose PNG turns out damaged part way), the
    /// encoder stops asking for them and throws: found by the fuzzer, which ran out of memory
    /// compressing the rest of a tall image's pieces from nothing.
    func testAnEncodingWhoseRowsFailStopsAsking() throws {
        let width = 1000, height = 3000   // 12 MB of rows: 12 pieces
        let asked = Mutex(0)
        XCTAssertThrowsError(try PNGWriter.encodeRGBA(width: width, height: height) { rows, out, stride in
            let call = asked.withLock { $0 += 1; return $0 }
            for k in 0..<rows.count { (out + k * stride).initializeMemory(as: UInt8.self, repeating: 9, count: width * 4) }
            return call < 2
        }) { XCTAssertTrue($0 is PNGWriter.RowsUnavailable, "\($0)") }
        XCTAssertLessThanOrEqual(asked.withLock { $0 }, 2 + ProcessInfo.processInfo.activeProcessorCount, "the pieces after the failure are not begun")
        // A small image, made in bands of one buffer, stops too.
        XCTAssertThrowsError(try PNGWriter.encodeRGBA(width: 10, height: 10) { _, _, _ in false })
    }

    func testPicturesDecodeToCairosOwnPixels() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-png-decoder-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let width = 37, height = 19
        var translucent = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            translucent[i * 4] = UInt8(i * 7 % 256); translucent[i * 4 + 1] = UInt8(i * 13 % 256)
            translucent[i * 4 + 2] = UInt8(i * 29 % 256); translucent[i * 4 + 3] = UInt8(i * 11 % 256)
        }
        let opaque = translucent.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
        for (name, pixels) in [("translucent", translucent), ("opaque", opaque)] {
            let url = folder.appendingPathComponent("\(name).png")
            try PNGWriter.encodeRGBA(pixels, width: width, height: height).write(to: url)
            let ours = try XCTUnwrap(CairoSurface(png: url, maximumPixels: 1 << 20))
            let cairos = CairoSurface(taking: cairo_image_surface_create_from_png(url.path))
            XCTAssertEqual(cairo_image_surface_get_format(ours.surface), cairo_image_surface_get_format(cairos.surface), name)
            let a = ours.withPixels { data, stride in Array(UnsafeBufferPointer(start: data, count: stride * height)) }
            let b = cairos.withPixels { data, stride in Array(UnsafeBufferPointer(start: data, count: stride * height)) }
            XCTAssertEqual(a, b, name)
        }
    }
}

/// A fragment that labels itself, as line-number gutters and invisibles markers do: text, an
/// image and a placeholder drawn from `draw(at:in:)`, which used to end the process.
private final class LabelledFragment: TextLayoutFragment {
    override func draw(at point: CGPoint, in context: GraphicsContext) {
        super.draw(at: point, in: context)
        context.text("42", at: CGPoint(x: point.x + 2, y: point.y), size: 11, Color(hex: 0xD1242F), bold: true)
        context.image(Paths.fixtures.appendingPathComponent("documents/media/photo.png"), in: CGRect(x: point.x + 300, y: point.y, width: 16, height: 12))
    }
}

private final class LabellingView: TextView, TextLayoutManagerDelegate {
    func textLayoutManager(_ textLayoutManager: TextLayoutManager, textLayoutFragmentFor location: TextLocation,
                           in textElement: TextElement) -> TextLayoutFragment {
        LabelledFragment(textElement: textElement, range: textElement.elementRange)
    }
}

final class FragmentDrawingTests: XCTestCase {
    /// Every public drawing function works from a fragment's `draw(at:in:)`: the label's red
    /// and the image's pixels are in the frame.
    func testAFragmentDrawsTextAndImages() throws {
        let view = LabellingView(document: try TextDocument(markdown: "A paragraph labelled by its fragment."),
                                 viewportSize: CGSize(width: 400, height: 120))
        view.textLayoutManager.delegate = view
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let top = Int(fragment.layoutFragmentFrame.minY)
        let red = (top..<top + 14).contains { y in (2..<20).contains { x in let p = frame.pixel(x: x, y: y); return p.red > 180 && p.green < 90 } }
        XCTAssertTrue(red, "the label is drawn")
        let image = (top..<top + 12).contains { y in (300..<316).contains { x in frame.pixel(x: x, y: y) != (255, 255, 255) } }
        XCTAssertTrue(image, "the image is drawn")
    }
}

/// An element of the program's own (TextKit's `NSTextParagraph` subclasses): it says which
/// paragraph it lays out as.
private struct QuotedElement: TextElement {
    let quoted: TextParagraph
    var elementRange: TextRange? { quoted.elementRange }
    var textParagraph: TextParagraph { quoted }
}

final class ForeignElementTests: XCTestCase {
    /// A fragment made for an element that is not a `TextParagraph` shapes its paragraph, where it
    /// used to end the process.
    func testAFragmentForAnElementOfYourOwnLaysOutItsParagraph() throws {
        let paragraph = try TextDocument(markdown: "Quoted text, laid out from an element of the program's own.").paragraphs[0]
        let fragment = TextLayoutFragment(textElement: QuotedElement(quoted: paragraph), range: nil)
        XCTAssertEqual(fragment.textElement.elementRange, paragraph.elementRange)
        let view = TextView(document: try TextDocument(markdown: "x"), viewportSize: CGSize(width: 400, height: 120))
        let delegate = ForeignElementDelegate(element: QuotedElement(quoted: paragraph))
        view.textLayoutManager.delegate = delegate
        _ = try withExtendedLifetime(delegate) { try view.renderFrame() }
        let laidOut = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        XCTAssertEqual((laidOut.textElement as? TextParagraph)?.text, paragraph.text)
        XCTAssertFalse(laidOut.textLineFragments.isEmpty)
    }
}

private final class ForeignElementDelegate: TextLayoutManagerDelegate {
    let element: QuotedElement
    init(element: QuotedElement) { self.element = element }
    func textLayoutManager(_ textLayoutManager: TextLayoutManager, textLayoutFragmentFor location: TextLocation,
                           in textElement: TextElement) -> TextLayoutFragment {
        TextLayoutFragment(textElement: element, range: element.elementRange)
    }
}

/// A fragment that draws by a setting of the program's (STTextView's invisibles), as ported code
/// does: the setting is read when drawing.
private final class SettingFragment: TextLayoutFragment {
    nonisolated(unsafe) static var showsMarkers = false
    nonisolated(unsafe) static var keyed = false
    override var renderingSurfaceKey: AnyHashable? { Self.keyed ? Self.showsMarkers : nil }
    override func draw(at point: CGPoint, in context: GraphicsContext) {
        super.draw(at: point, in: context)
        if Self.showsMarkers { context.fill(CGRect(x: point.x + 2, y: point.y + 2, width: 8, height: 8), Color(hex: 0xD1242F)) }
    }
}

private final class SettingView: TextView, TextLayoutManagerDelegate {
    func textLayoutManager(_ textLayoutManager: TextLayoutManager, textLayoutFragmentFor location: TextLocation,
                           in textElement: TextElement) -> TextLayoutFragment {
        SettingFragment(textElement: textElement, range: textElement.elementRange)
    }
}

final class InvalidationTests: XCTestCase {
    private func view() throws -> SettingView {
        SettingFragment.showsMarkers = false
        SettingFragment.keyed = false
        let view = SettingView(document: try TextDocument(markdown: "One paragraph.\n\nAnother one."), viewportSize: CGSize(width: 300, height: 120))
        view.textLayoutManager.delegate = view
        return view
    }

    private func marked(_ frame: RenderedFrame) -> Bool {
        (0..<60).contains { y in (0..<60).contains { x in let p = frame.pixel(x: x, y: y); return p.red > 180 && p.green < 90 } }
    }

    /// After a drawing setting changes, `invalidateLayout(for:)` and
    /// `invalidateRenderingAttributes(for:)` redraw: the next frame shows it (it was
    /// byte-identical to the last, from cached surfaces), and equals a frame drawn uncached.
    func testInvalidationRedrawsTheSurfaces() throws {
        for invalidate in [{ (m: TextLayoutManager) in m.invalidateLayout(for: m.documentRange) },
                           { (m: TextLayoutManager) in m.invalidateRenderingAttributes(for: m.documentRange) }] {
            let view = try view()
            XCTAssertFalse(marked(try view.renderFrame()))
            SettingFragment.showsMarkers = true
            invalidate(view.textLayoutManager)
            let redrawn = try view.renderFrame()
            XCTAssertTrue(marked(redrawn), "the setting shows after the invalidation")
            let fresh = try self.view()
            SettingFragment.showsMarkers = true
            fresh.cachesFragments = false
            XCTAssertEqual(try redrawn.pngData(), try fresh.renderFrame().pngData(), "cached equals uncached")
        }
    }

    /// A fragment that names what its drawing depends on is redrawn when that changes, without
    /// an invalidation; one that names nothing keeps its surface until invalidated.
    func testARenderingSurfaceKeyRedrawsWithoutInvalidation() throws {
        let view = try view()
        _ = try view.renderFrame()
        SettingFragment.showsMarkers = true
        XCTAssertFalse(marked(try view.renderFrame()), "no key, no invalidation: the surface is kept")
        SettingFragment.keyed = true
        XCTAssertTrue(marked(try view.renderFrame()), "the key changed: drawn afresh")
    }
}
