import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Many threads reading, laying out and drawing GFM-heavy documents at once must give exactly
/// what one thread gives: cmark-gfm's extension tables, fontconfig, Pango and Cairo are shared
/// C state, and a race shows as `~~struck~~` drawn literally or a paragraph that breaks elsewhere.
final class ConcurrencyTests: XCTestCase {
    /// Documents that use every GFM extension the reader attaches, in different amounts, so that
    /// one thread's parse finishes while another's is still reading inlines.
    static func documents() -> [String] {
        (0..<6).map { k in
            var text = "# Case \(k)\n\n"
            for i in 0..<(4 + 3 * k) {
                text += "Para \(i): ~~struck \(i)~~ and **bold** and https://example.com/\(i) and www.example.org ~two~.\n\n"
                text += "| a | b ~~c~~ | \(i) |\n|---|:-:|--:|\n| ~~x~~ | y | https://z.example |\n| 1 | 2 | 3 |\n\n"
                text += "- [x] done ~~item~~ \(i)\n- [ ] open https://t.example\n\n"
                text += "> quoted ~~\(i)~~ text with `code` and *emphasis* and ***both***\n\n"
                // Every face of the font set (more than Cairo keeps open at once: it closes and
                // reopens FreeType faces while other threads shape).
                text += "## العربية \(i) **עברית** *हिन्दी* 日本語の**文章** 한국어 👩‍👩‍👧‍👦 🇯🇵\n\n"
                text += "```\nmono \(i) **not bold** 文本\n```\n\n"
            }
            return text
        }
    }

    /// What one document gives: its paragraphs' text and styles, and two frames' PNG bytes.
    static func result(of markdown: String) throws -> [Data] {
        let document = try TextDocument(markdown: markdown)
        var out: [Data] = [Data(document.paragraphs.map { "\($0.text)|\($0.runs)" }.joined(separator: "\n").utf8)]
        let view = TextView(document: document, viewportSize: CGSize(width: 320, height: 240), scale: markdown.count % 2 == 0 ? 1 : 2)
        out.append(try view.renderFrame().pngData())
        view.scroll(by: 400)
        out.append(try view.renderFrame().pngData())
        return out
    }

    func testParallelParsingAndRenderingMatchSerial() throws {
        let documents = Self.documents()
        let serial = try documents.map { try Self.result(of: $0) }
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var differing: [String] = []
        }
        let results = Results()
        let rounds = 12, threads = 8
        // Threads of its own: `concurrentPerform` runs only as many at once as there are cores.
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            let worker = Thread {
                for round in 0..<rounds {
                    let job = thread * rounds + round, index = job % documents.count
                    let outcome = Result { try Self.result(of: documents[index]) }
                    results.lock.withLock {
                        switch outcome {
                        case .success(let got) where got != serial[index]:
                            let what = got[0] != serial[index][0] ? "text" : "pixels"
                            results.differing.append("job \(job), document \(index): \(what) differ")
                        case .failure(let error): results.differing.append("job \(job): \(error)")
                        default: break
                        }
                    }
                }
                FontSet.releaseThreadFonts()
                group.leave()
            }
            worker.stackSize = 8 << 20
            worker.start()
        }
        group.wait()
        XCTAssertEqual(results.differing, [], "\(results.differing.count) of \(threads * rounds) parallel results differ from the serial run")
    }
    /// Fonts prepared on another thread (`FontSet.prepare`, as `textreel render` does while it
    /// reads the document) are taken by the first thread that draws, and draw what fonts made
    /// on that thread draw; a thread holding the font lock makes its own instead of waiting.
    func testPreparedFontsDrawTheSameFrame() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        let frame: @Sendable () throws -> Data = {
            try TextView(document: document, viewportSize: CGSize(width: 480, height: 360)).renderFrame().pngData()
        }
        func onNewThread(_ body: @escaping @Sendable () throws -> Data) throws -> Data {
            final class Box: @unchecked Sendable { var result: Result<Data, Error>? }
            let box = Box(), done = DispatchSemaphore(value: 0)
            let thread = Thread {
                box.result = Result { try body() }
                FontSet.releaseThreadFonts()
                done.signal()
            }
            thread.start()
            done.wait()
            return try box.result!.get()
        }
        let plain = try onNewThread { try frame() }
        let prepared = try onNewThread {
            FontSet.standard.prepare()
            return try frame()
        }
        XCTAssertEqual(prepared, plain)
        let underLock = try onNewThread {
            FontSet.standard.prepare()
            return try FontLock.run { try frame() }   // would wait forever for fonts made under the lock
        }
        XCTAssertEqual(underLock, plain)
    }
}
