import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// `events.jsonl` lines are written by `JSONText`, not by Foundation's encoder: every line of
/// every golden fixture's script (scrolls, edits, selections, marked text, attachment events),
/// and values the fixtures lack, must be the encoder's bytes exactly.
final class EventLineTests: XCTestCase {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    func testEveryFixtureLineIsTheEncodersBytes() throws {
        let golden = Paths.fixtures.appendingPathComponent("golden")
        var lines = 0, kinds = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: golden.path).sorted() {
            let folder = golden.appendingPathComponent(name)
            guard let text = try? String(contentsOf: folder.appendingPathComponent("case.json5"), encoding: .utf8),
                  let document = Self.value(of: "document", in: text), let script = Self.value(of: "script", in: text) else { continue }
            let view = TextView(document: try TextDocument(contentsOf: folder.appendingPathComponent(document)),
                                viewportSize: CGSize(width: 480, height: 360))
            try ScriptRunner(view: view, script: ScrollScript(contentsOf: folder.appendingPathComponent(script))).run(drawing: 0...0) { _, _, event in
                XCTAssertEqual(String(decoding: try event.jsonLine(), as: UTF8.self), String(decoding: try encoder.encode(event), as: UTF8.self),
                               "\(name), frame \(event.frame)")
                lines += 1
                if event.selection != nil { kinds.insert("selection") }
                if event.selection?.marked != nil { kinds.insert("marked") }
                if !event.edits.isEmpty { kinds.insert("edits") }
                if !event.attachments.isEmpty { kinds.insert("attachments") }
            }
        }
        // Marked text, which no fixture has.
        let view = TextView(document: try TextDocument(markdown: "Type here: and there.\n"), viewportSize: CGSize(width: 300, height: 200))
        let script = try ScrollScript(data: Data(#"{steps: [{select: {paragraph: 0, from: 10}}, {setMarkedText: "に"}, {setMarkedText: "日本/語"}, {wait: 0.1}, {unmarkText: true}, {wait: 0.1}]}"#.utf8))
        try ScriptRunner(view: view, script: script).run { _, _, event in
            XCTAssertEqual(String(decoding: try event.jsonLine(), as: UTF8.self), String(decoding: try encoder.encode(event), as: UTF8.self))
            if event.selection?.marked != nil { kinds.insert("marked") }
        }
        XCTAssertGreaterThan(lines, 300)
        XCTAssertEqual(kinds, ["selection", "marked", "edits", "attachments"], "the fixtures cover every part of a line")
    }

    /// Strings with everything JSON escapes, numbers of every form, nil fields left out.
    func testEscapesAndNumbersAreTheEncoders() throws {
        let view = TextView(document: try TextDocument(markdown: "One.\n"), viewportSize: CGSize(width: 200, height: 100))
        var event = FrameEvent(frame: 1, time: 1e-7, pass: try view.layoutPass(), edits: [FrameEvent.Edit(kind: "insert", paragraph: nil, index: 3)],
                               snapshots: ["a/b \"c\" \\ \u{1}\u{8}\u{c}\n\r\t\u{1f} é 😀 \u{7f} \u{2028}"])
        event.correction = -0.0
        event.checks.estimateError = 0.30000000000000004
        event.checks.jump = 1e21
        event.viewport.y = 1.2345678901234568e+17
        event.attachments = [AttachmentEvent(id: "v/1", provider: "video", event: .kept,
                                             state: ["time": .number(2.5e-5), "on": .bool(true), "label": .string("a\"b"), "Z": .number(-3)])]
        XCTAssertEqual(String(decoding: try event.jsonLine(), as: UTF8.self), String(decoding: try encoder.encode(event), as: UTF8.self))
    }

    /// Random strings (every control character, DEL, line separators, astral planes) and random
    /// finite doubles (any bit pattern: subnormals, huge and tiny exponents; and whole numbers),
    /// fixed seed.
    func testRandomStringsAndNumbersAreTheEncoders() throws {
        var random = SplitMix(seed: 35)
        let specials: [UInt32] = [0, 0x1F, 0x22, 0x2F, 0x5C, 0x7F, 0x85, 0x2028, 0x2029, 0xFEFF, 0x1F600, 0x10FFFF]
        for _ in 0..<2000 {
            let scalars = (0..<Int(random.next() % 12)).compactMap { _ -> Unicode.Scalar? in
                let r = random.next()
                switch r % 3 {
                case 0: return Unicode.Scalar(specials[Int(r / 3 % UInt64(specials.count))])
                case 1: return Unicode.Scalar(UInt32(r >> 8 % 0x80))
                default: return Unicode.Scalar(UInt32(r >> 8 % 0x11_0000))   // nil for a surrogate
                }
            }
            let string = String(String.UnicodeScalarView(scalars))
            var number = Double(bitPattern: random.next())
            if !number.isFinite { number = 0.1 }
            let whole = Double(Int32(truncatingIfNeeded: random.next()))
            var json = JSONText()
            json.array([string])
            json.array([number, whole])
            let expected = try encoder.encode([string]) + encoder.encode([number, whole])
            XCTAssertEqual(String(decoding: json.bytes, as: UTF8.self), String(decoding: expected, as: UTF8.self))
        }
    }

    /// `key: "value"` in a case file.
    private static func value(of key: String, in text: String) -> String? {
        guard let range = text.range(of: "\(key): \"") else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }
}
