import Foundation
import TextReel

/// Accumulates a paragraph's text as UTF-8 bytes with styled runs and attachments, so that every
/// range is already in Pango's byte offsets.
struct InlineBuilder {
    private(set) var bytes: [UInt8] = []
    private(set) var runs: [StyledRun] = []
    private(set) var attachments: [TextAttachment] = []
    private var styles: [(InlineStyle, String?)] = []

    var isEmpty: Bool { bytes.isEmpty }
    /// The text so far ends in `suffix`.
    func endsWith(_ suffix: String) -> Bool { bytes.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) }

    /// The text so far ends in U+2028 (a `<br>` or a hard break).
    var endsWithLineSeparator: Bool { endsWith("\u{2028}") }
    var currentStyle: InlineStyle { styles.reduce(into: InlineStyle()) { $0.formUnion($1.0) } }
    var currentLink: String? { styles.last(where: { $0.1 != nil })?.1 }

    mutating func push(_ style: InlineStyle, link: String? = nil) { styles.append((style, link)) }

    /// An empty builder with this one's styles and elements still open: the next paragraph of
    /// an element a block ends inside (`<a href><div>…</div>text</a>`: the text stays a link).
    func continued() -> InlineBuilder {
        var next = InlineBuilder()
        next.styles = styles
        next.openTags = openTags
        return next
    }
    /// Ends the latest Markdown style (an HTML element open inside it stays open).
    mutating func pop() {
        guard let index = styles.indices.last(where: { i in !openTags.contains { $0.index == i } }) else { return }
        remove(at: index)
    }

    private mutating func remove(at index: Int) {
        styles.remove(at: index)
        for j in openTags.indices where openTags[j].index > index { openTags[j].index -= 1 }
    }

    /// Inline HTML elements open in this paragraph, each with the place of its style in `styles`.
    private var openTags: [(name: String, index: Int)] = []

    /// An inline HTML element's start (`<b>`, `<a href>`): its style holds until its end tag.
    mutating func open(tag name: String, _ style: InlineStyle, link: String? = nil) {
        openTags.append((name, styles.count))
        push(style, link: link)
    }

    /// An end tag: closes the latest open element of that name, wherever it is in the stack
    /// (misnested `<b><i></b></i>` ends each where its own end tag is, as browsers show it); a
    /// stray end tag does nothing.
    mutating func close(tag name: String) {
        guard let k = openTags.lastIndex(where: { $0.name == name }) else { return }
        remove(at: openTags.remove(at: k).index)
    }

    mutating func append(_ text: String, extra: InlineStyle = []) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0), extra: extra) }
    }

    /// Appends a C string's bytes without making a Swift string first (the reader's hot path).
    mutating func append(cString: UnsafePointer<CChar>?, extra: InlineStyle = []) {
        guard let cString else { return }
        append(bytes: UnsafeRawBufferPointer(start: cString, count: strlen(cString)), extra: extra)
    }

    /// Appends prose as GitHub's page sets it (HTML collapses white space): a run of spaces and
    /// tabs is one space, and none follows another collapsible space or starts a line. Code keeps
    /// its spaces (appended with `append(cString:extra: .code)`).
    mutating func append(collapsingSpaces cString: UnsafePointer<CChar>?) {
        guard let cString else { return }
        append(collapsingSpaces: UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    mutating func append(collapsingSpaces text: String) {
        var text = text
        text.withUTF8 { append(collapsingSpaces: UnsafeRawBufferPointer($0)) }
    }

    private mutating func append(collapsingSpaces text: UnsafeRawBufferPointer) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        let codeEnds = runs.last.map { $0.range.upperBound == bytes.count && $0.style.contains(.code) } ?? false
        var spaced = bytes.isEmpty || endsWithLineSeparator || (bytes.last == 0x20 && !codeEnds)
        // Most text has nothing to collapse: appended as it is.
        if !(spaced && text.first.map(isSpace) == true) && !zip(text, text.dropFirst()).contains(where: { isSpace($0) && isSpace($1) })
            && !text.contains(0x09) {
            return append(bytes: text, extra: [])
        }
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(text.count)
        for byte in text {
            if isSpace(byte) {
                if !spaced { collapsed.append(0x20) }
                spaced = true
            } else {
                collapsed.append(byte)
                spaced = false
            }
        }
        collapsed.withUnsafeBytes { append(bytes: $0, extra: []) }
    }

    private mutating func append(bytes text: UnsafeRawBufferPointer, extra: InlineStyle) {
        guard !text.isEmpty else { return }
        let start = bytes.count
        bytes.append(contentsOf: text)
        let style = currentStyle.union(extra)
        guard !style.isEmpty else { return }
        let link = currentLink
        if var last = runs.last, last.range.upperBound == start, last.style == style, last.link == link {
            last.range = last.range.lowerBound..<bytes.count
            runs[runs.count - 1] = last
        } else {
            runs.append(StyledRun(range: start..<bytes.count, style: style, link: link))
        }
    }

    mutating func append(attachment: TextAttachment) {
        var placed = attachment.at(offset: bytes.count, isBlock: false)
        // GitHub's way of giving a README one image per colour scheme.
        if attachment.url.hasSuffix("#gh-dark-mode-only") { placed.shownInDarkLook = true }
        if attachment.url.hasSuffix("#gh-light-mode-only") { placed.shownInDarkLook = false }
        attachments.append(placed)
        bytes.append(contentsOf: TextAttachment.character.utf8)
    }

    /// Shows the last attachment only in dark looks (true) or only in light ones (false).
    mutating func showLastAttachment(inDarkLook dark: Bool) {
        attachments[attachments.count - 1].shownInDarkLook = dark
    }

    /// Makes the last attachment `fraction` of the text column wide (`TextAttachment.widthFraction`).
    mutating func widenLastAttachment(to fraction: Double) {
        attachments[attachments.count - 1].widthFraction = fraction
    }

    /// The text with trailing whitespace and line separators removed.
    var text: String {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
