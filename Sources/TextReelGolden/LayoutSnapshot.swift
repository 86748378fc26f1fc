import Foundation
import TextReelMarkdown

/// The structure behind golden frames: per frame, the fragments in the viewport bounds with their
/// lines and attachment frames, and the attachment events. Compared before pixels, so a change is
/// reported as what it is ("paragraph 12 now breaks into 4 lines instead of 3").
public struct LayoutSnapshot: Codable, Equatable, Sendable {
    /// An attachment in a fragment.
    public struct Attachment: Codable, Equatable, Sendable {
        /// The attachment's id.
        public var id: String
        /// Relative to the fragment; written as [x, y, width, height].
        public var frame: LayoutRect

        /// Attachment `id` at `frame`.
        public init(id: String, frame: LayoutRect) { self.id = id; self.frame = frame }

        private enum CodingKeys: String, CodingKey { case id, frame }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            let v = try c.decode([Double].self, forKey: .frame)
            guard v.count == 4 else {
                throw DecodingError.dataCorruptedError(forKey: .frame, in: c, debugDescription: "expected [x, y, width, height]")
            }
            frame = LayoutRect(x: v[0], y: v[1], width: v[2], height: v[3])
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode([frame.x, frame.y, frame.width, frame.height], forKey: .frame)
        }
    }

    /// A fragment in the viewport bounds.
    public struct Fragment: Codable, Equatable, Sendable {
        /// The paragraph's id (`ParagraphID.rawValue`).
        public var paragraph: Int
        /// The paragraph's index in the document.
        public var index: Int
        /// The fragment's top, in document coordinates.
        public var y: Double
        /// The fragment's height, in points.
        public var height: Double
        /// Byte offset where each line starts.
        public var lines: [Int]
        /// Each line's top and height, relative to the fragment.
        public var lineBounds: [[Double]]
        /// Its attachments, in text order.
        public var attachments: [Attachment]
    }

    /// One frame's structure.
    public struct Frame: Codable, Equatable, Sendable {
        /// The visible rect's top, in document coordinates.
        public var viewportY: Double
        /// Pixels per point.
        public var scale: Double
        /// The fragments in the viewport bounds, top to bottom.
        public var fragments: [Fragment]
        /// "id: event" for each attachment event of the frame.
        public var events: [String]
        /// The selection: [paragraph id, UTF-8 offset] of its start and end (left out when there
        /// is none, so files of views without one are as they were).
        public var selection: [[Int]]?
    }

    /// Frame number → structure.
    public var frames: [Int: Frame] = [:]

    /// No frames.
    public init() {}

    /// How layout.json is written: stable keys, readable diffs under version control.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    /// `layout.json`'s bytes: those of `encoder`, written directly (the encoder was a fifth of a
    /// test of a small case). A number JSON cannot say goes through the encoder, which throws.
    func json() throws -> Data {
        var json = JSONText(pretty: true)
        write(to: &json)
        return json.hasNonFinite ? try Self.encoder.encode(self) : Data(json.bytes)
    }

    /// The structure of a layout pass.
    static func frame(of pass: LayoutPass) -> Frame {
        Frame(
            viewportY: pass.visibleRect.y, scale: pass.scale,
            fragments: pass.fragments.map { fragment in
                Fragment(
                    paragraph: fragment.paragraph, index: fragment.index,
                    y: fragment.frame.y, height: fragment.frame.height,
                    lines: fragment.lines.map(\.start),
                    lineBounds: fragment.lines.map { [$0.top, $0.height] },
                    attachments: fragment.attachments.map {
                        Attachment(id: $0.id, frame: $0.frame)
                    })
            },
            events: pass.attachmentEvents.map { "\($0.id): \($0.event.rawValue)" },
            selection: pass.selection.map { [$0.start, $0.end] })
    }

    /// What changed from `expected` to `self`, in words, each reported at the first frame it shows.
    public func changes(from expected: LayoutSnapshot) -> [String] {
        var messages: [String] = []
        var seen = Set<String>()
        func say(_ frame: Int, _ text: String) {
            if seen.insert(text).inserted { messages.append("frame \(frame): \(text)") }
        }
        // Frames on one side only are the pixels' business: a missing golden, or an obsolete one.
        for number in Set(frames.keys).intersection(expected.frames.keys).sorted() {
            let now = frames[number]!, before = expected.frames[number]!
            if now.selection != before.selection {
                say(number, Self.selectionChange(now, from: before))
            }
            // Positions are compared on screen (relative to the visible top): document coordinates
            // above the viewport may be estimates, and a far jump lands without measuring them.
            let old = Dictionary(before.fragments.map { ($0.paragraph, $0) }, uniquingKeysWith: { a, _ in a })
            let new = Dictionary(now.fragments.map { ($0.paragraph, $0) }, uniquingKeysWith: { a, _ in a })
            var moved = false
            for fragment in now.fragments {
                guard let was = old[fragment.paragraph] else {
                    say(number, "paragraph \(fragment.index) (id \(fragment.paragraph)) is now in the viewport bounds")
                    continue
                }
                let name = "paragraph \(fragment.index)"
                if fragment.lines.count != was.lines.count {
                    say(number, "\(name) now breaks into \(fragment.lines.count) line\(fragment.lines.count == 1 ? "" : "s") instead of \(was.lines.count)")
                } else if let k = fragment.lines.indices.first(where: { fragment.lines[$0] != was.lines[$0] }) {
                    say(number, "\(name) breaks differently: line \(k + 1) starts at byte \(fragment.lines[k]) instead of \(was.lines[k])")
                }
                // Compared as they are written: a move smaller than the message can show (24.0 to
                // 24.0) is the pixels' business, not a structural change.
                if fmt(fragment.height) != fmt(was.height) {
                    say(number, "\(name) is now \(fmt(fragment.height)) pt tall instead of \(fmt(was.height))")
                } else if fmt(fragment.y - now.viewportY) != fmt(was.y - before.viewportY) && !moved {
                    moved = true
                    say(number, "\(name) moved on screen from y \(fmt(was.y - before.viewportY)) to \(fmt(fragment.y - now.viewportY))")
                }
                for attachment in fragment.attachments {
                    if let previous = was.attachments.first(where: { $0.id == attachment.id }), numbers(previous.frame) != numbers(attachment.frame) {
                        say(number, "attachment \(attachment.id) is now at \(numbers(attachment.frame)) instead of \(numbers(previous.frame))")
                    }
                }
            }
            for fragment in before.fragments where new[fragment.paragraph] == nil {
                say(number, "paragraph \(fragment.index) (id \(fragment.paragraph)) is no longer in the viewport bounds")
            }
            if now.events != before.events {
                let added = now.events.filter { !before.events.contains($0) }
                let removed = before.events.filter { !now.events.contains($0) }
                say(number, "attachment events changed: \((added.map { "+" + $0 } + removed.map { "−" + $0 }).joined(separator: ", "))")
            }
        }
        return messages
    }

    /// A change of selection in words: "the caret is now at paragraph 3, offset 14, line 2
    /// instead of paragraph 3, offset 9, line 1".
    static func selectionChange(_ now: Frame, from before: Frame) -> String {
        func place(_ p: [Int], _ frame: Frame) -> String {
            guard let fragment = frame.fragments.first(where: { $0.paragraph == p[0] }) else { return "paragraph id \(p[0]), offset \(p[1])" }
            let line = (fragment.lines.lastIndex { $0 <= p[1] } ?? 0) + 1
            return "paragraph \(fragment.index), offset \(p[1]), line \(line)"
        }
        func words(_ selection: [[Int]]?, _ frame: Frame) -> String {
            guard let s = selection, s.count == 2 else { return "none" }
            return s[0] == s[1] ? "a caret at \(place(s[0], frame))" : "\(place(s[0], frame)) to \(place(s[1], frame))"
        }
        if let a = now.selection, let b = before.selection, a.count == 2, b.count == 2, a[0] == a[1], b[0] == b[1] {
            return "the caret is now at \(place(a[0], now)) instead of \(place(b[0], before))"
        }
        return "the selection is now \(words(now.selection, now)) instead of \(words(before.selection, before))"
    }

    /// What is under a differing region of frame `number` (`rect` in points, relative to the viewport).
    public func describe(_ rect: CGRect, inFrame number: Int) -> String {
        guard let frame = frames[number] else { return "unknown" }
        let top = rect.minY + frame.viewportY, bottom = rect.maxY + frame.viewportY
        var names: [String] = []
        for fragment in frame.fragments where fragment.y < bottom && fragment.y + fragment.height > top {
            for attachment in fragment.attachments {
                let box = attachment.frame.cgRect.offsetBy(dx: 0, dy: fragment.y)
                if box.intersects(CGRect(x: rect.minX, y: top, width: rect.width, height: bottom - top)) {
                    names.append("attachment \(attachment.id)")
                }
            }
            let lines = fragment.lineBounds.indices.filter {
                let y = fragment.y + fragment.lineBounds[$0][0]
                return y < bottom && y + fragment.lineBounds[$0][1] > top
            }
            switch (lines.first, lines.last) {
            case let (first?, last?) where fragment.lineBounds.count > 1:
                names.append("paragraph \(fragment.index) line\(first == last ? " \(first + 1)" : "s \(first + 1)–\(last + 1)")")
            default:
                names.append("paragraph \(fragment.index)")
            }
        }
        return names.isEmpty ? "the margin" : names.joined(separator: ", ")
    }

    /// One decimal, and none for a whole number once rounded (24.02 is "24", as 24 is).
    private func fmt(_ value: Double) -> String { NumberText.text(value, decimals: 1, roundingFirst: true) }

    /// A rect as messages write it: [x, y, width, height] at one decimal.
    private func numbers(_ rect: LayoutRect) -> [String] { [rect.x, rect.y, rect.width, rect.height].map(fmt) }
}

/// The keys of each level in sorted order, as `LayoutSnapshot.encoder` writes them.
extension LayoutSnapshot: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("frames", Dictionary(uniqueKeysWithValues: frames.map { (String($0.key), $0.value) }))
        }
    }
}

extension LayoutSnapshot.Frame: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("events", events)
            json.field("fragments", fragments)
            json.field("scale", scale)
            json.field("selection", ifPresent: selection)
            json.field("viewportY", viewportY)
        }
    }
}

extension LayoutSnapshot.Fragment: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("attachments", attachments)
            json.field("height", height)
            json.field("index", index)
            json.field("lineBounds", lineBounds)
            json.field("lines", lines)
            json.field("paragraph", paragraph)
            json.field("y", y)
        }
    }
}

extension LayoutSnapshot.Attachment: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("frame", [frame.x, frame.y, frame.width, frame.height])
            json.field("id", id)
        }
    }
}
