import Foundation

/// The one JSON5 reader, for scroll scripts and golden `case.json5` alike. It parses the text
/// into a tree that knows where every value is, so that every error — syntax, type, range, an
/// unknown key — names its line and column, repeated keys are reported instead of silently
/// dropped, and values Foundation refuses or garbles are handled the same way everywhere. The
/// tree is handed to Foundation's `JSONDecoder` as plain JSON, so typed decoding stays
/// Foundation's. Written by hand because no library here parses JSON5 with positions: Foundation's
/// JSON5 mode reports neither line nor column, nor repeated keys.
public struct JSON5Document {
    /// Where a value or key starts in the text.
    public struct Position: Equatable, Sendable {
        /// 1-based line.
        public var line: Int
        /// 1-based column, counting characters, not bytes.
        public var column: Int
    }

    indirect enum Value {
        case object([(key: String, keyAt: Position, value: Node)])
        case array([Node])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    struct Node {
        var value: Value
        var at: Position
    }

    let root: Node
    let fileName: String
    /// Keys given twice in one object ("steps.2.scroll: key 'to' given twice; the last one counts").
    public private(set) var warnings: [String] = []

    /// The deepest nesting read (Foundation's decoder stops at 512).
    public static let maximumDepth = 256

    /// Parses `text`; a syntax error is a `TextReelError` in `fileName` at its line and column.
    public init(text: String, fileName: String) throws {
        self.fileName = fileName
        var parser = Parser(bytes: Array(text.utf8), fileName: fileName)
        root = try parser.document()
        warnings = parser.warnings
    }

    /// Decodes the tree with Foundation's decoder; a decoding error becomes one line naming the
    /// place in the file, what was found and what was expected.
    public func decode<T: Decodable>(_ type: T.Type, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo
        do { return try decoder.decode(type, from: json) } catch let error as DecodingError {
            func at(_ path: [CodingKey], _ message: String) -> TextReelError {
                let p = position(of: path)
                let name = path.isEmpty ? "" : " at \(path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))"
                return TextReelError(file: fileName, line: p.line, column: p.column, message + name)
            }
            switch error {
            case .dataCorrupted(let context):
                // An unknown key is shown where the key is written, not its value.
                if let last = context.codingPath.last, context.debugDescription.hasPrefix("unknown key '\(last.stringValue)'"),
                   let p = keyPosition(last.stringValue, in: Array(context.codingPath.dropLast())) {
                    throw TextReelError(file: fileName, line: p.line, column: p.column, context.debugDescription)
                }
                throw at(context.codingPath, context.debugDescription)
            case .keyNotFound(let key, let context):
                throw at(context.codingPath, "missing key '\(key.stringValue)'")
            case .typeMismatch(let type, let context):
                throw at(context.codingPath, "\(kind(at: context.codingPath)) where \(Self.name(of: type)) was expected")
            case .valueNotFound(let type, let context):
                throw at(context.codingPath, "null where \(Self.name(of: type)) was expected")
            @unknown default:
                throw TextReelError(file: fileName, "\(error)")
            }
        }
    }

    static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let text = "\(type)"
            return text.hasPrefix("Array") ? "a list" : text.hasPrefix("Dictionary") ? "an object" : "a value of the right kind"
        }
    }

    /// The tree as plain JSON, for `JSONDecoder`.
    public var json: Data {
        var out = ""
        Self.write(root, into: &out)
        return Data(out.utf8)
    }

    /// Where the value at `path` (a decoder's coding path) is, or the deepest part of it found.
    public func position(of path: [CodingKey]) -> Position {
        var node = root
        for key in path {
            switch node.value {
            case .object(let members):
                guard let member = members.last(where: { $0.key == key.stringValue }) else { return node.at }
                node = member.value
            case .array(let items):
                guard let i = key.intValue ?? Int(key.stringValue.replacingOccurrences(of: "Index ", with: "")), i >= 0, i < items.count else { return node.at }
                node = items[i]
            default:
                return node.at
            }
        }
        return node.at
    }

    /// Where the key `name` of the object at `path` is written (for unknown-key errors).
    public func keyPosition(_ name: String, in path: [CodingKey]) -> Position? {
        var node = root
        for key in path {
            switch node.value {
            case .object(let members): guard let m = members.last(where: { $0.key == key.stringValue }) else { return nil }; node = m.value
            case .array(let items): guard let i = key.intValue, i >= 0, i < items.count else { return nil }; node = items[i]
            default: return nil
            }
        }
        if case .object(let members) = node.value { return members.last { $0.key == name }?.keyAt }
        return nil
    }

    /// Positions of the items of the array at `path` (empty when there is none).
    public func itemPositions(_ path: [String]) -> [Position] {
        var node = root
        for key in path {
            guard case .object(let members) = node.value, let m = members.last(where: { $0.key == key }) else { return [] }
            node = m.value
        }
        guard case .array(let items) = node.value else { return [] }
        return items.map(\.at)
    }

    /// What kind of value sits at `path`, in words ("a string", "a list"), for type errors.
    public func kind(at path: [CodingKey]) -> String {
        var node = root
        for key in path {
            switch node.value {
            case .object(let members): guard let m = members.last(where: { $0.key == key.stringValue }) else { return "nothing" }; node = m.value
            case .array(let items): guard let i = key.intValue, i >= 0, i < items.count else { return "nothing" }; node = items[i]
            default: return "nothing"
            }
        }
        switch node.value {
        case .object: return "an object"
        case .array: return "a list"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        }
    }

    private static func write(_ node: Node, into out: inout String) {
        switch node.value {
        case .object(let members):
            out += "{"
            // The last of repeated keys counts (and was warned about): write only it.
            var seen = Set<String>()
            let kept = members.reversed().filter { seen.insert($0.key).inserted }.reversed()
            for (i, member) in kept.enumerated() {
                if i > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .string(let s): writeString(s, into: &out)
        case .number(let n): out += n
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
