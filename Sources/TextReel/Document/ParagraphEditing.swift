import Foundation

/// Text edits inside one paragraph. Offsets are in characters (what a person counts); runs and
/// attachments move with the text, and an attachment inside a deleted range goes with it.
extension TextParagraph {
    /// The UTF-8 offset of character `offset`, or nil past the end.
    func utf8Offset(ofCharacter offset: Int) -> Int? { stringIndex(ofCharacter: offset).map { text.utf8.distance(from: text.startIndex, to: $0) } }

    /// The UTF-16 offset (a `TextLocation`'s) of character `offset`, or nil past the end.
    func utf16Offset(ofCharacter offset: Int) -> Int? { stringIndex(ofCharacter: offset).map { text.utf16.distance(from: text.startIndex, to: $0) } }

    /// The character index (what edits count) at UTF-16 offset `offset`, or nil inside a Unicode
    /// scalar (a combining mark may be reached alone: backspace decomposing).
    func characterIndex(ofUTF16 offset: Int) -> Int? {
        guard offset >= 0, let index = text.utf16.index(text.utf16.startIndex, offsetBy: offset, limitedBy: text.utf16.endIndex),
              index.samePosition(in: text.unicodeScalars) != nil else { return nil }
        return text.distance(from: text.startIndex, to: index)
    }

    private func stringIndex(ofCharacter offset: Int) -> String.Index? {
        guard offset >= 0 else { return nil }
        return text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex)
    }

    /// Length of the text in characters, the unit of these edits' offsets.
    public var characterCount: Int { text.count }

    /// Inserts plain `string` before character `offset`; it takes the style of the run it lands in.
    public func inserting(_ string: String, atCharacter offset: Int) throws -> TextParagraph {
        // Pango ends a layout's text at a NUL (the caret past it asked for positions outside the
        // layout: found by the fuzzer); a document holding one is refused when read, as here.
        guard !UTF8Text.contains(0, in: string) else {
            throw TextReelError("cannot insert a NUL character: text holds none (a document with one is refused when read)")
        }
        guard let at = utf8Offset(ofCharacter: offset) else {
            throw TextReelError("cannot insert at character \(offset): the paragraph has \(characterCount) characters")
        }
        let length = string.utf8.count
        var bytes = Array(text.utf8)
        bytes.insert(contentsOf: string.utf8, at: at)
        // A run grows when the text lands inside it or at its end (it takes the run's style).
        func grown(_ r: Range<Int>) -> Range<Int> {
            // An empty run where the text lands (an empty line's font) takes the text.
            if r.isEmpty && r.lowerBound == at { return at..<at + length }
            let lower = r.lowerBound >= at ? r.lowerBound + length : r.lowerBound
            let upper = r.upperBound > at || (r.upperBound == at && r.lowerBound < at) ? r.upperBound + length : r.upperBound
            return lower..<upper
        }
        let runs = self.runs.map { var run = $0; run.range = grown(run.range); return run }
        let attachments = self.attachments.map {
            $0.utf8Offset >= at ? $0.at(offset: $0.utf8Offset + length, isBlock: $0.isBlock) : $0
        }
        let attributes = self.attributes.map { var run = $0; run.range = grown(run.range); return run }
        return replacing(text: String(decoding: bytes, as: UTF8.self), runs: runs, attachments: attachments, attributes: attributes)
    }

    /// Deletes `length` characters from character `from`.
    public func deleting(fromCharacter from: Int, length: Int) throws -> TextParagraph {
        guard let start = utf8Offset(ofCharacter: from), let end = utf8Offset(ofCharacter: from + length) else {
            throw TextReelError("cannot delete characters \(from)..<\(from + length): the paragraph has \(characterCount) characters")
        }
        let removed = end - start
        var bytes = Array(text.utf8)
        bytes.removeSubrange(start..<end)
        func move(_ offset: Int) -> Int { offset <= start ? offset : max(offset - removed, start) }
        let runs = self.runs.compactMap { run -> StyledRun? in
            var run = run
            run.range = move(run.range.lowerBound)..<move(run.range.upperBound)
            return run.range.isEmpty ? nil : run
        }
        let attachments = self.attachments.compactMap { attachment -> TextAttachment? in
            if (start..<end).contains(attachment.utf8Offset) { return nil }
            return attachment.at(offset: move(attachment.utf8Offset), isBlock: attachment.isBlock)
        }
        let attributes = self.attributes.compactMap { run -> AttributeRun? in
            var run = run
            run.range = move(run.range.lowerBound)..<move(run.range.upperBound)
            return run.range.isEmpty ? nil : run
        }
        return replacing(text: String(decoding: bytes, as: UTF8.self), runs: runs, attachments: attachments, attributes: attributes)
    }

    /// This paragraph with `other`'s text, runs, attributes and attachments after its own (the
    /// paragraph break between them deleted); it keeps its own kind and id. An attachment is a
    /// block one only while it is all the text.
    func appending(_ other: TextParagraph) -> TextParagraph {
        let shift = text.utf8.count
        let joined = text + other.text
        let alone = joined == TextAttachment.character
        let runs = self.runs + other.runs.map { var run = $0; run.range = run.range.lowerBound + shift..<run.range.upperBound + shift; return run }
        let attributes = self.attributes + other.attributes.map {
            var run = $0; run.range = run.range.lowerBound + shift..<run.range.upperBound + shift; return run
        }
        let attachments = self.attachments.map { $0.at(offset: $0.utf8Offset, isBlock: alone) }
            + other.attachments.map { $0.at(offset: $0.utf8Offset + shift, isBlock: alone) }
        return replacing(text: joined, runs: runs, attachments: attachments, attributes: attributes)
    }

    /// The paragraph cut at UTF-8 offset `at` (a paragraph break typed there): this one keeps the
    /// text before, its id and kind; the text after goes to a new paragraph `id`, with its runs,
    /// attributes and attachments. A heading or rule broken at its end continues as body text.
    func splitting(at: Int, newID id: ParagraphID) -> (head: TextParagraph, tail: TextParagraph) {
        let bytes = Array(text.utf8)
        let before = String(decoding: bytes[..<at], as: UTF8.self), after = String(decoding: bytes[at...], as: UTF8.self)
        func clip<T>(_ items: [T], _ range: Range<Int>, _ get: (T) -> Range<Int>, _ set: (T, Range<Int>) -> T) -> [T] {
            items.compactMap { item in
                let r = get(item).clamped(to: range)
                return r.isEmpty ? nil : set(item, r.lowerBound - range.lowerBound..<r.upperBound - range.lowerBound)
            }
        }
        func part(_ range: Range<Int>, _ text: String) -> (runs: [StyledRun], attributes: [AttributeRun], attachments: [TextAttachment]) {
            (clip(runs, range, \.range) { var r = $0; r.range = $1; return r },
             clip(attributes, range, \.range) { var r = $0; r.range = $1; return r },
             attachments.filter { range.contains($0.utf8Offset) }
                .map { $0.at(offset: $0.utf8Offset - range.lowerBound, isBlock: text == TextAttachment.character) })
        }
        var head = part(0..<at, before), tail = part(at..<bytes.count, after)
        // A part left empty keeps the attributes of the text beside the break (before it, else
        // after it), as an empty run for the text typed into it (NSTextStorage's rule: a line
        // break typed in code starts a code line, as tall as the code's).
        func kept(_ offset: Int) -> [AttributeRun] {
            let covering = attributes.filter { $0.range.contains(offset) || ($0.range.isEmpty && $0.range.lowerBound == offset) }
            return covering.map { AttributeRun(range: 0..<0, attributes: $0.attributes) }
        }
        if after.isEmpty { tail.attributes = kept(max(at - 1, 0)) }
        if before.isEmpty { head.attributes = kept(at) }
        var tailKind = kind
        switch kind {
        case .heading where after.isEmpty, .thematicBreak, .blockAttachment: tailKind = .body
        default: break
        }
        return (replacing(text: before, runs: head.runs, attachments: head.attachments, attributes: head.attributes),
                TextParagraph(id: id, kind: tailKind, text: after, runs: tail.runs, attachments: tail.attachments,
                              quoteDepth: quoteDepth, listDepth: listDepth, sourceLine: sourceLine, attributes: tail.attributes))
    }
}
