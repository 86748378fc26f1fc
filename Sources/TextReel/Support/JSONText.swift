/// JSON written straight into bytes, exactly as Foundation's `JSONEncoder` with `.sortedKeys`
/// (and, when `pretty`, `.prettyPrinted`) writes it: numbers as their shortest `description` less
/// a trailing ".0", "/" escaped, control characters as `\n`-style escapes or `\u00XX`. For the
/// line `events.jsonl` gets every frame, where the encoder was a tenth of a 300-frame scroll's
/// time, and a golden case's `layout.json`, which a test of a small case spent a fifth of its
/// time encoding. Callers give keys in sorted order (by UTF-8 bytes); tests compare every kind of
/// line and layout with the encoder's.
package struct JSONText {
    package private(set) var bytes: [UInt8] = []
    /// A number was NaN or infinite, which JSON cannot say (the encoder throws; `null` stands in).
    package private(set) var hasNonFinite = false
    /// No value has been written yet at the current level (no comma is due).
    private var first = true
    /// Indented as `.prettyPrinted` indents: two spaces a level, `"key" : value`.
    private let pretty: Bool
    private var depth = 0

    package init(pretty: Bool = false) {
        self.pretty = pretty
        bytes.reserveCapacity(2048)
    }

    package mutating func object(_ body: (inout JSONText) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// `"key":value`, after a comma when it is not the object's first.
    package mutating func field<Value: JSONTextWritable>(_ key: String, _ value: Value) {
        separate()
        string(key)
        bytes.append(contentsOf: (pretty ? " : " : ":").utf8)
        value.write(to: &self)
        first = false
    }

    /// Left out when nil, as an encoder's `encodeIfPresent` does.
    package mutating func field<Value: JSONTextWritable>(_ key: String, ifPresent value: Value?) {
        if let value { field(key, value) }
    }

    package mutating func array<Items: Sequence>(_ items: Items) where Items.Element: JSONTextWritable {
        open(UInt8(ascii: "["))
        for item in items {
            separate()
            item.write(to: &self)
            first = false
        }
        close(UInt8(ascii: "]"))
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        first = true
        depth += 1
    }

    /// Pretty, an empty container is its brackets around an empty line, as the encoder writes it.
    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty {
            if first { bytes.append(0x0A) }
            newLine()
        }
        bytes.append(bracket)
        first = false
    }

    private mutating func newLine() {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    package mutating func number(_ value: Double) {
        guard value.isFinite else {
            hasNonFinite = true
            bytes.append(contentsOf: "null".utf8)
            return
        }
        // Whole numbers (most coordinates) as integers, which is what the description gives
        // less its ".0" below 10^16 (minus zero keeps its sign there).
        if value == value.rounded(.towardZero), abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
            return number(Int(value))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Digits written in place: a `String` a number was most of writing a layout.
    package mutating func number(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    package mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (keys, names, ids) need no escape: copied whole.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/") }) {
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func separate() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        if pretty { newLine() }
    }
}

/// A value `JSONText` writes.
package protocol JSONTextWritable {
    func write(to json: inout JSONText)
}

extension Int: JSONTextWritable { package func write(to json: inout JSONText) { json.number(self) } }
extension Double: JSONTextWritable { package func write(to json: inout JSONText) { json.number(self) } }
extension Bool: JSONTextWritable { package func write(to json: inout JSONText) { json.bool(self) } }
extension String: JSONTextWritable { package func write(to json: inout JSONText) { json.string(self) } }
extension Array: JSONTextWritable where Element: JSONTextWritable {
    package func write(to json: inout JSONText) { json.array(self) }
}
extension Dictionary: JSONTextWritable where Key == String, Value: JSONTextWritable {
    /// Keys in UTF-8 byte order, as the encoder sorts them.
    package func write(to json: inout JSONText) {
        json.object { json in
            for (key, value) in sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { json.field(key, value) }
        }
    }
}
