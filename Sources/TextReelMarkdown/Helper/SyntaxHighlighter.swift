import Foundation
import TextReel

/// Fenced code highlighted by its info string. Candidates in Debian's packages were compared:
/// GtkSourceView 5 (about 150 languages, but a GTK 4 text buffer and its libraries at start-up),
/// tree-sitter (Debian ships no grammars), GNU source-highlight (114 languages, no Swift) and
/// Pygments (python3-pygments: over 500 lexers, Swift among them, pure functions of their input).
/// Pygments wins on coverage and determinism; it runs in the `PythonHelper` process, started when
/// the first fenced block with a language is read (about 40 ms).
///
/// Highlighting is incremental by band: each band of a long block keeps the lexer's state stack
/// at its start, so an edit re-lexes from its band and stops at the first later band whose start
/// state is unchanged (editors' line-state technique).
enum SyntaxHighlighter {

    /// What one request gives: spans by class (UTF-8 byte offsets into the text sent), the state
    /// stack at each cut reached (nil where lexing cannot resume), and the cut where an edit's
    /// re-lexing met the state it had before (nil: it ran to the end).
    struct Result {
        var spans: [(range: Range<Int>, name: String)]
        var stacks: [[String]?]
        var synced: Int?
    }

    /// Highlights `text` in `language` from the lexer state `stack` (nil: the start of a block);
    /// `cuts` are character offsets (Unicode scalars) where bands start, `expect` their state
    /// stacks before an edit. Nil when the language is unknown or Pygments is not there.
    static func highlight(_ text: String, language: String, stack: [String]? = nil, cuts: [Int] = [], expect: [[String]?]? = nil) -> Result? {
        var request: [String: Any] = ["language": language.lowercased(), "text": text, "cuts": cuts]
        if let stack { request["stack"] = stack }
        if let expect { request["expect"] = expect.map { $0 as Any? ?? NSNull() } }
        let subject = "\(language) code '\(text.prefix { $0 != "\n" }.prefix(40))'"
        guard let reply = PythonHelper.shared.exchange(request, about: subject), reply["known"] as? Bool == true else { return nil }
        return Result(spans: Self.unpacked(reply["spans"] as? String ?? ""), stacks: (reply["stacks"] as? [Any] ?? []).map { $0 as? [String] },
                      synced: reply["synced"] as? Int)
    }

    /// The helper's "start end class …" spans, read in one pass over the bytes.
    static func unpacked(_ packed: String) -> [(range: Range<Int>, name: String)] {
        var spans: [(range: Range<Int>, name: String)] = []
        var fields: [Substring.UTF8View.SubSequence] = []
        for field in packed.utf8.split(separator: 0x20) {
            fields.append(field)
            guard fields.count == 3 else { continue }
            if let start = Int(Substring(fields[0])), let end = Int(Substring(fields[1])), start < end {
                spans.append((start..<end, String(Substring(fields[2]))))
            }
            fields.removeAll(keepingCapacity: true)
        }
        return spans
    }
}

extension SyntaxHighlighter {
    /// The language an info string names ("swift", from "swift title=x"); nil for none.
    static func language(ofInfo info: String?) -> String? {
        guard let word = info?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" || $0 == "," }).first, !word.isEmpty else { return nil }
        return word.lowercased()
    }

    /// Highlights consecutive bands of one code block, the first lexed from its `syntaxStart`.
    /// With `syncAfter` (the band edited), lexing stops at the first later band whose start state
    /// has not changed. Returns the bands lexed (a prefix of `bands`), each with its syntax runs
    /// and start state; nil when the language is unknown or there is no highlighter.
    static func highlighted(_ bands: [TextParagraph], language: String, syncAfter edited: Int? = nil) -> [TextParagraph]? {
        guard !bands.isEmpty else { return [] }
        var cuts: [Int] = [], byteStarts = [0]
        var scalars = 0, bytes = 0
        for band in bands.dropLast() {
            scalars += band.text.unicodeScalars.count + 1
            bytes += band.text.utf8.count + 1
            cuts.append(scalars)
            byteStarts.append(bytes)
        }
        let text = bands.map(\.text).joined(separator: "\n")
        guard let result = highlight(text, language: language, stack: bands[0].syntaxStart, cuts: cuts,
                                     expect: edited.map { edited in bands.indices.dropFirst().map { $0 > edited ? bands[$0].syntaxStart : nil } }) else { return nil }
        let count = result.synced.map { $0 + 1 } ?? bands.count
        var next = 0
        return (0..<count).map { k in
            let lower = byteStarts[k], upper = lower + bands[k].text.utf8.count
            var runs: [AttributeRun] = []
            while next < result.spans.count && result.spans[next].range.upperBound <= lower { next += 1 }
            var j = next
            while j < result.spans.count && result.spans[j].range.lowerBound < upper {
                let span = result.spans[j]
                let range = max(span.range.lowerBound, lower) - lower..<min(span.range.upperBound, upper) - lower
                if !range.isEmpty { runs.append(AttributeRun(range: range, attributes: [AttributeVocabulary.syntaxClass: .string(span.name)])) }
                j += 1
            }
            let kept = bands[k].attributes.filter { $0.attributes[AttributeVocabulary.syntaxClass] == nil }
            var band = bands[k].replacing(text: bands[k].text, runs: bands[k].runs, attachments: bands[k].attachments, attributes: kept + runs)
            band.syntaxStart = k == 0 ? bands[0].syntaxStart : k - 1 < result.stacks.count ? result.stacks[k - 1] : nil
            return band
        }
    }
}
