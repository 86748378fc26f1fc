import Foundation

/// The byte-level parser behind `JSON5Document`: the text into a tree of values, each with its
/// line and column, repeated keys noted (why it is written by hand: see `JSON5Document`).
extension JSON5Document {
    struct Parser {
        let bytes: [UInt8]
        let fileName: String
        var i = 0
        var line = 1, lineStart = 0
        var depth = 0
        var warnings: [String] = []
        var path: [String] = []

        init(bytes: [UInt8], fileName: String) {
            self.bytes = bytes
            self.fileName = fileName
        }

        /// The last column worked out, so that the next one counts on from there: a script on one
        /// long line would otherwise recount its line for every value (quadratic).
        private let columns = ColumnMemo()

        var position: Position {
            // Columns count characters, not bytes. `i` only grows, so the memo only moves forward.
            let end = min(i, bytes.count)
            if columns.lineStart != lineStart || columns.index > end { columns.lineStart = lineStart; columns.index = lineStart; columns.column = 1 }
            var column = columns.column
            for k in columns.index..<end where bytes[k] & 0xC0 != 0x80 { column += 1 }
            columns.index = end
            columns.column = column
            return Position(line: line, column: column)
        }

        private final class ColumnMemo {
            var lineStart = 0, index = 0, column = 1
        }

        func fail(_ message: String, at: Position? = nil) -> TextReelError {
            let p = at ?? position
            return TextReelError(file: fileName, line: p.line, column: p.column, message)
        }

        var found: String {
            guard i < bytes.count else { return "the end of the file" }
            let scalar = String(decoding: bytes[i..<min(i + 4, bytes.count)], as: UTF8.self).first.map(String.init) ?? "?"
            return "'\(scalar)'"
        }

        mutating func document() throws -> Node {
            try skipSpace()
            guard i < bytes.count else { throw fail("the file is empty; expected a JSON5 object, {…}") }
            let node = try value()
            try skipSpace()
            guard i >= bytes.count else { throw fail("unexpected \(found) after the end of the value; expected the end of the file") }
            return node
        }

        mutating func advance() {
            if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }

        mutating func skipSpace() throws {
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C { advance(); continue }
                // U+00A0, U+FEFF, U+2028, U+2029 are white space in JSON5 too.
                if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0xA0 { i += 2; continue }
                if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF { i += 3; continue }
                if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { i += 3; continue }
                if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    continue
                }
                if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                    let start = position
                    i += 2
                    while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { advance() }
                    guard i + 1 < bytes.count else { throw fail("a comment is never closed; expected */", at: start) }
                    i += 2
                    continue
                }
                return
            }
        }

        mutating func value() throws -> Node {
            let at = position
            guard i < bytes.count else { throw fail("the file ends where a value was expected") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return Node(value: try object(), at: at)
            case UInt8(ascii: "["): return Node(value: try array(), at: at)
            case UInt8(ascii: "\""), UInt8(ascii: "'"): return Node(value: .string(try string()), at: at)
            default:
                if let word = identifier() {
                    switch word {
                    case "true": return Node(value: .bool(true), at: at)
                    case "false": return Node(value: .bool(false), at: at)
                    case "null": return Node(value: .null, at: at)
                    case "Infinity", "NaN": throw fail("\(word) is not a usable number; expected a finite number", at: at)
                    default: throw fail("unexpected word '\(word)'; expected a value (a number, a string in quotes, true, false, null, a list or an object)", at: at)
                    }
                }
                return Node(value: .number(try number()), at: at)
            }
        }

        mutating func enter() throws {
            depth += 1
            if depth > JSON5Document.maximumDepth {
                throw fail("lists and objects nested more than \(JSON5Document.maximumDepth) deep")
            }
        }

        mutating func object() throws -> Value {
            try enter()
            defer { depth -= 1 }
            advance()   // {
            var members: [(key: String, keyAt: Position, value: Node)] = []
            var keys = Set<String>()
            while true {
                try skipSpace()
                guard i < bytes.count else { throw fail("the file ends inside an object; expected } or a key") }
                if bytes[i] == UInt8(ascii: "}") { advance(); return .object(members) }
                let keyAt = position
                let key: String
                if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    key = try string()
                } else if let word = identifier() {
                    key = word
                } else {
                    throw fail("unexpected \(found); expected a key (a name or a string in quotes) or }")
                }
                try skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("unexpected \(found) after key '\(key)'; expected :") }
                advance()
                try skipSpace()
                path.append(key)
                let node = try value()
                path.removeLast()
                if !keys.insert(key).inserted {
                    let place = path.isEmpty ? "" : " in \(path.joined(separator: "."))"
                    warnings.append("\(fileName):\(keyAt.line):\(keyAt.column): warning: key '\(key)' is given twice\(place); the last one counts")
                }
                members.append((key, keyAt, node))
                try skipSpace()
                guard i < bytes.count else { throw fail("the file ends inside an object; expected , or }") }
                if bytes[i] == UInt8(ascii: ",") { advance(); continue }
                if bytes[i] == UInt8(ascii: "}") { advance(); return .object(members) }
                throw fail("unexpected \(found) after the value of '\(key)'; expected , or }")
            }
        }

        mutating func array() throws -> Value {
            try enter()
            defer { depth -= 1 }
            advance()   // [
            var items: [Node] = []
            while true {
                try skipSpace()
                guard i < bytes.count else { throw fail("the file ends inside a list; expected ] or a value") }
                if bytes[i] == UInt8(ascii: "]") { advance(); return .array(items) }
                path.append(String(items.count))
                items.append(try value())
                path.removeLast()
                try skipSpace()
                guard i < bytes.count else { throw fail("the file ends inside a list; expected , or ]") }
                if bytes[i] == UInt8(ascii: ",") { advance(); continue }
                if bytes[i] == UInt8(ascii: "]") { advance(); return .array(items) }
                throw fail("unexpected \(found) in a list; expected , or ]")
            }
        }

        /// An ECMAScript identifier name (ASCII letters, digits, _ and $, and any non-ASCII letter).
        mutating func identifier() -> String? {
            let start = i
            while i < bytes.count {
                let b = bytes[i]
                let ascii = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24 || (i > start && b >= 0x30 && b <= 0x39)
                if ascii || b >= 0x80 {
                    // Non-ASCII: a letter continues the name; anything else ends it.
                    if b >= 0x80 {
                        let rest = String(decoding: bytes[i..<min(i + 4, bytes.count)], as: UTF8.self)
                        guard let scalar = rest.unicodeScalars.first, scalar.properties.isAlphabetic else { break }
                        i += String(scalar).utf8.count
                        continue
                    }
                    i += 1
                } else { break }
            }
            return i > start ? String(decoding: bytes[start..<i], as: UTF8.self) : nil
        }

        mutating func string() throws -> String {
            let start = position
            let quote = bytes[i]
            i += 1
            var out = [UInt8]()
            while true {
                guard i < bytes.count else { throw fail("a string is never closed; expected \(quote == 0x22 ? "\"" : "'")", at: start) }
                let b = bytes[i]
                if b == quote { i += 1; return String(decoding: out, as: UTF8.self) }
                if b == 0x0A || b == 0x0D { throw fail("a line break inside a string; expected \(quote == 0x22 ? "\"" : "'") first, or \\n") }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw fail("a string ends with a backslash", at: start) }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "v"): out.append(0x0B)
                case UInt8(ascii: "0"):
                    if i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { throw fail("\\0 followed by a digit is not allowed in JSON5") }
                    out.append(0)
                case 0x0A: line += 1; lineStart = i       // a line continuation
                case 0x0D: if i < bytes.count, bytes[i] == 0x0A { i += 1 }; line += 1; lineStart = i
                case UInt8(ascii: "x"):
                    out.append(contentsOf: String(try scalar(hexDigits: 2)).utf8)
                case UInt8(ascii: "u"):
                    var value = try hex(4)
                    if (0xD800...0xDBFF).contains(value), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex(4)
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("\\u\(String(value, radix: 16)) is half a surrogate pair") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let s = Unicode.Scalar(value) else { throw fail("\\u\(String(value, radix: 16)) is half a surrogate pair; expected a whole character") }
                    out.append(contentsOf: String(s).utf8)
                default:
                    if (0x31...0x39).contains(e) { throw fail("\\\(Character(Unicode.Scalar(e))) is not an escape in JSON5") }
                    out.append(e)
                }
            }
        }

        mutating func hex(_ count: Int) throws -> UInt32 {
            guard i + count <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + count], as: UTF8.self), radix: 16) else {
                throw fail("expected \(count) hexadecimal digits after the escape")
            }
            i += count
            return v
        }

        mutating func scalar(hexDigits: Int) throws -> Character {
            Character(Unicode.Scalar(try hex(hexDigits))!)
        }

        /// A number as JSON writes it (hex and JSON5's extra forms rewritten).
        mutating func number() throws -> String {
            let at = position
            let start = i
            var negative = false
            if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                negative = bytes[i] == UInt8(ascii: "-")
                i += 1
                if let word = identifier() {
                    guard word == "Infinity" || word == "NaN" else { throw fail("unexpected '\(word)' after a sign; expected a number", at: at) }
                    throw fail("\(negative ? "-" : "+")\(word) is not a usable number; expected a finite number", at: at)
                }
            }
            if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] | 0x20 == UInt8(ascii: "x") {
                i += 2
                let digitsStart = i
                while i < bytes.count, (bytes[i] >= 0x30 && bytes[i] <= 0x39) || (bytes[i] | 0x20 >= 0x61 && bytes[i] | 0x20 <= 0x66) { i += 1 }
                guard i > digitsStart, let v = UInt64(String(decoding: bytes[digitsStart..<i], as: UTF8.self), radix: 16) else {
                    throw fail("a hexadecimal number needs digits after 0x", at: at)
                }
                return (negative ? "-" : "") + String(v)
            }
            var intDigits = "", fraction = "", exponent = ""
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { intDigits.append(Character(Unicode.Scalar(bytes[i]))); i += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { fraction.append(Character(Unicode.Scalar(bytes[i]))); i += 1 }
            }
            guard !intDigits.isEmpty || !fraction.isEmpty else {
                i = start
                throw fail("unexpected \(found); expected a value (a number, a string in quotes, true, false, null, a list or an object)", at: at)
            }
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                var sign = ""
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { sign = bytes[i] == UInt8(ascii: "-") ? "-" : ""; i += 1 }
                var digits = ""
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { digits.append(Character(Unicode.Scalar(bytes[i]))); i += 1 }
                guard !digits.isEmpty else { throw fail("a number's exponent needs digits", at: at) }
                exponent = "e" + sign + digits
            }
            if intDigits.count > 1, intDigits.hasPrefix("0") { throw fail("a number may not start with 0 (\(intDigits)); JSON5 has no octal", at: at) }
            let text = (negative ? "-" : "") + (intDigits.isEmpty ? "0" : intDigits) + (fraction.isEmpty ? "" : "." + fraction) + exponent
            guard let value = Double(text), value.isFinite else { throw fail("\(text) is too large a number; expected a finite number", at: at) }
            return text
        }
    }
}
