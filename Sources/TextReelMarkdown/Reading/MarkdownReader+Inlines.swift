import CMark
import Foundation
import TextReel

/// A block's inlines: styles, links, images and formulas, into an `InlineBuilder`.
extension MarkdownReader {
    // MARK: Inlines

    mutating func readInlines(of parent: OpaquePointer, into inline: inout InlineBuilder) throws {
        let nests = ["emph", "strong", "strikethrough", "link", "image"].contains(typeName(parent))
        try descend(parent, counts: nests)
        defer { if nests { depth -= 1 } }
        var child = cmark_node_first_child(parent)
        while let node = child {
            try readInline(node, into: &inline)
            child = cmark_node_next(node)
        }
    }

    mutating func readInline(_ node: OpaquePointer, into inline: inout InlineBuilder) throws {
        switch typeName(node) {
        case "text":
            if math == nil { inline.append(collapsingSpaces: cmark_node_get_literal(node)) } else { appendMathText(string(cmark_node_get_literal(node)), into: &inline) }
        case "html_inline":
            let (line, column) = position(of: node)
            try readInlineTag(source(cmark_node_get_literal(node)), line: line, column: column, into: &inline)
        case "softbreak":
            // A formula's line break is its own; after a `<br>`, the line break's space would
            // start the next line.
            if mathSkip > 0 { mathSkip -= 1 } else if !inline.endsWithLineSeparator { inline.append(" ") }
        case "linebreak":
            inline.append("\u{2028}")
        case "code":
            if let math { inline.append(math.restored(string(cmark_node_get_literal(node))), extra: .code) } else {
                inline.append(cString: cmark_node_get_literal(node), extra: .code)
            }
        case _ where cmark_node_get_type(node) == CMARK_NODE_FOOTNOTE_REFERENCE:
            // cmark-gfm numbers references in order of first use; the literal is the number.
            let number = string(cmark_node_get_literal(node))
            inline.push([.link, .raised], link: "#fn-\(number)")
            inline.append(number)
            inline.pop()
        case "emph":
            try styled(.emphasis, node, &inline)
        case "strong":
            try styled(.strong, node, &inline)
        case "strikethrough":
            try styled(.strikethrough, node, &inline)
        case "link" where inline.endsWith("^") && string(cmark_node_get_url(node)).hasSuffix(":") && !string(cmark_node_get_title(node)).isEmpty:
            // `^[text](key: "value")`: cmark reads `key:` as a link's destination and the string as
            // its title. It is Apple's attribute syntax: written back as text, it is read as such.
            inline.append("[")
            try readInlines(of: node, into: &inline)
            let title = source(cmark_node_get_title(node)).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            inline.append("](\(source(cmark_node_get_url(node))) \"\(title)\")")
        case "link":
            inline.push(.link, link: source(cmark_node_get_url(node)))
            try readInlines(of: node, into: &inline)
            inline.pop()
        case "image":
            try readImage(node, into: &inline)
        default:
            try readInlines(of: node, into: &inline)
        }
    }

    mutating func styled(_ style: InlineStyle, _ node: OpaquePointer, _ inline: inout InlineBuilder) throws {
        inline.push(style)
        try readInlines(of: node, into: &inline)
        inline.pop()
    }

    mutating func readImage(_ node: OpaquePointer, into inline: inout InlineBuilder) throws {
        var alt = InlineBuilder()
        try readInlines(of: node, into: &alt)
        let (line, column) = position(of: node)
        try appendImage(url: source(cmark_node_get_url(node)), alt: alt.text, line: line, column: column, into: &inline)
    }

    /// An image (Markdown's or HTML's `<img>`, with its `width` and `height`) as an attachment.
    mutating func appendImage(url: String, alt: String, declared: (width: Double?, height: Double?) = (nil, nil),
                              line: Int?, column: Int?, into inline: inout InlineBuilder) throws {
        let place = [fileName, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        do {
            let parsed = try AttachmentURL.parse(url, altText: alt, baseURL: baseURL, limits: limits, declared: declared, kinds: kinds) { scheme in
                ordinals[scheme, default: 0] += 1
                return ordinals[scheme]!
            }
            if let warning = parsed.warning { warnings.append("\(place): warning: \(warning)") }
            let id = parsed.attachment.id
            if let first = attachmentIDs[id] {
                warnings.append("\(place): warning: attachment id '\(id)' is used again (first \(first)); steps and scroll targets that name it find the first")
            } else {
                attachmentIDs[id] = line.map { line in "at " + (column.map { "\(line):\($0)" } ?? "\(line)") } ?? "earlier"
            }
            inline.append(attachment: parsed.attachment)
        } catch let error as AttachmentURL.Message {
            throw TextReelError(file: fileName, line: line, column: column, error.text)
        }
    }

    // MARK: Math

    /// Text that may hold formulas' markers: each becomes its typeset formula (or, when the
    /// engine cannot draw it, its source as a code span, with a warning), its placeholder dropped.
    mutating func appendMathText(_ text: String, into inline: inout InlineBuilder) {
        var plain = ""
        for scalar in text.unicodeScalars {
            if mathSkip > 0 { mathSkip -= 1; continue }
            guard let span = math?.span(marker: scalar) else { plain.unicodeScalars.append(scalar); continue }
            if !plain.isEmpty { inline.append(collapsingSpaces: plain); plain = "" }
            mathSkip = MathSpans.placeholderLength(span)
            appendFormula(span.tex, display: span.display, line: span.line + lineOffset, column: span.column, into: &inline)
        }
        if !plain.isEmpty { inline.append(collapsingSpaces: plain) }
    }

    /// A formula as a math attachment still to be typeset: that waits for its paragraph's first
    /// layout (`AttachmentKind.prepare`), since most of a long document is never shown. One too
    /// large to typeset at all is known now, and is its source, with a warning.
    mutating func appendFormula(_ tex: String, display: Bool, line: Int, column: Int?, into inline: inout InlineBuilder) {
        ordinals["math", default: 0] += 1
        if let problem = MathTypesetter.sizeProblem(of: MathTypesetter.joinedLines(tex)) {
            let place = [fileName, String(line), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
            warnings.append("\(place): warning: math: \(problem.reason); drawn as its source")
            let fence = display ? "$$" : "$"
            inline.append(fence + tex + fence, extra: .code)
            return
        }
        let attachment = TextAttachment.math(tex, ordinal: ordinals["math"]!, isBlock: display)
        if display { displayFormulas.insert(attachment.id) }
        inline.append(attachment: attachment)
    }
}
