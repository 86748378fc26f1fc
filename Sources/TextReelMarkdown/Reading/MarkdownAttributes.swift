import Foundation
import TextReel

/// Apple's Markdown attribute syntax, as Foundation's `AttributedString(markdown:)` reads it:
/// `^[text](commentDepth: 2, note: "x")` gives `text` the attributes listed (numbers, strings,
/// booleans, in JSON5). cmark-gfm sees it as plain text (a link target cannot hold spaces), so the
/// reader takes it out of a paragraph's text afterwards, moving runs and attachments with the
/// text. A list that does not read as JSON5 (a syntax error, NaN or Infinity) gives no
/// attributes and a problem the reader warns about; its text stays, never a literal `^[`.
enum MarkdownAttributes {
    struct Result {
        var text: String
        var runs: [StyledRun]
        var attachments: [TextAttachment]
        var attributes: [AttributeRun]
        /// Lists that could not be read: the source as written, and why.
        var problems: [(source: String, reason: String)] = []
    }

    static func extract(text: String, runs: [StyledRun], attachments: [TextAttachment]) -> Result {
        var result = Result(text: text, runs: runs, attachments: attachments, attributes: [])
        guard UTF8Text.contains(UInt8(ascii: "^"), in: text) else { return result }
        var bytes = Array(text.utf8)
        var from = 0
        while let found = next(in: bytes, from: from) {
            let (start, close, end, parsed) = found
            let attributes: [String: AttributeValue]
            switch parsed {
            case .success(let values): attributes = values
            case .failure(let problem):
                attributes = [:]
                result.problems.append((String(decoding: bytes[start..<end], as: UTF8.self), problem.reason))
            }
            // Remove "^[" and "](…)"; everything after moves back.
            bytes.removeSubrange(close..<end)
            bytes.removeSubrange(start..<(start + 2))
            func move(_ o: Int) -> Int {
                if o < start { return o }
                if o < start + 2 { return start }
                if o < close { return o - 2 }
                if o < end { return close - 2 }
                return o - 2 - (end - close)
            }
            result.runs = result.runs.compactMap { run in
                var run = run
                run.range = move(run.range.lowerBound)..<move(run.range.upperBound)
                return run.range.isEmpty ? nil : run
            }
            result.attachments = result.attachments.map { $0.at(offset: move($0.utf8Offset), isBlock: $0.isBlock) }
            result.attributes = result.attributes.map { var run = $0; run.range = move(run.range.lowerBound)..<move(run.range.upperBound); return run }
            if close - 2 > start, !attributes.isEmpty { result.attributes.append(AttributeRun(range: start..<(close - 2), attributes: attributes)) }
            from = close - 2
        }
        result.text = String(decoding: bytes, as: UTF8.self)
        return result
    }

    /// The next `^[text](list)` at or after `from`: where `^[` starts, where `](` starts, the
    /// end of `)`, and the attributes.
    private static func next(in bytes: [UInt8], from: Int) -> (Int, Int, Int, Swift.Result<[String: AttributeValue], Problem>)? {
        var i = from
        while i + 1 < bytes.count {
            defer { i += 1 }
            guard bytes[i] == UInt8(ascii: "^"), bytes[i + 1] == UInt8(ascii: "[") else { continue }
            var depth = 1, j = i + 2
            while j < bytes.count, depth > 0 {
                if bytes[j] == UInt8(ascii: "[") { depth += 1 } else if bytes[j] == UInt8(ascii: "]") { depth -= 1 }
                j += 1
            }
            let close = j - 1
            guard depth == 0, j < bytes.count, bytes[j] == UInt8(ascii: "(") else { continue }
            // The list ends at the first ")" outside a string.
            var k = j + 1, quote: UInt8?
            while k < bytes.count {
                let b = bytes[k]
                if let q = quote {
                    if b == UInt8(ascii: "\\") { k += 1 } else if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ")") {
                    break
                }
                k += 1
            }
            guard k < bytes.count else { continue }
            return (i, close, k + 1, parse(Array(bytes[(j + 1)..<k])))
        }
        return nil
    }

    struct Problem: Error { let reason: String }

    /// `key: value, …` as JSON5.
    private static func parse(_ list: [UInt8]) -> Swift.Result<[String: AttributeValue], Problem> {
        let text = String(decoding: list, as: UTF8.self)
        do {
            let values = try JSON5Document(text: "{" + text + "}", fileName: "<attributes>").decode([String: Scalar].self)
            guard !values.isEmpty else { return .failure(Problem(reason: "an empty attribute list")) }
            return .success(values.mapValues(\.value))
        } catch let error as TextReelError {
            return .failure(Problem(reason: "the attribute list (\(text)) is not JSON5: \(error.message)"))
        } catch {
            return .failure(Problem(reason: "the attribute list (\(text)) holds a value that is not a number, a string or a boolean"))
        }
    }

    /// A number, a string or a boolean.
    private struct Scalar: Decodable {
        let value: AttributeValue
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) { value = .bool(b) }
            else if let n = try? c.decode(Double.self) { value = .number(n) }
            else { value = .string(try c.decode(String.self)) }
        }
    }
}
