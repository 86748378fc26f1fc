/// JSON written straight into bytes, exactly as Foundation's `JSONEncoder` with `.sortedKeys`
/// writes it: numbers as their shortest `description` less a trailing ".0", "/" escaped, control
/// characters as `\n`-style escapes or `\u00XX`. For the line `events.jsonl` gets every frame,
/// where the encoder was a tenth of a 300-frame scroll's time. Callers give keys in sorted order
/// (by UTF-8 bytes); a test compares every kind of line with the encoder's.
struct JSONText {
    private(set) var bytes: [UInt8] = []
    /// A number was NaN or infinite, which JSON cannot say (the encoder throws; `null` stands in).
    private(set) var hasNonFinite = false
    /// No value has been written yet at the current level (no comma is due).
    private var first = true

    init() { bytes.reserveCapacity(2048) }

    mutating func object(_ body: (inout JSONText) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        first = true
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    /// `"key":value`, after a comma when it is not the object's first.
    mutating func field<Value: JSONTextWritable>(_ key: String, _ value: Value) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        value.write(to: &self)
        first = false
    }

    /// Left out when nil, as an encoder's `encodeIfPresent` does.
    mutating func field<Value: JSONTextWritable>(_ key: String, ifPresent value: Value?) {
        if let value { field(key, value) }
    }

    mutating func array<Items: Sequence>(_ items: Items) where Items.Element: JSONTextWritable {
        bytes.append(UInt8(ascii: "["))
        first = true
        for item in items {
            separate()
            item.write(to: &self)
            first = false
        }
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    mutating func number(_ value: Double) {
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

    mutating func number(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    mutating func string(_ value: String) {
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
    }
}

/// A value `JSONText` writes.
protocol JSONTextWritable {
    func write(to json: inout JSONText)
}

extension Int: JSONTextWritable { func write(to json: inout JSONText) { json.number(self) } }
extension Double: JSONTextWritable { func write(to json: inout JSONText) { json.number(self) } }
extension Bool: JSONTextWritable { func write(to json: inout JSONText) { json.bool(self) } }
extension String: JSONTextWritable { func write(to json: inout JSONText) { json.string(self) } }
extension Array: JSONTextWritable where Element: JSONTextWritable {
    func write(to json: inout JSONText) { json.array(self) }
}
extension Dictionary: JSONTextWritable where Key == String, Value: JSONTextWritable {
    /// Keys in UTF-8 byte order, as the encoder sorts them.
    func write(to json: inout JSONText) {
        json.object { json in
            for (key, value) in sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { json.field(key, value) }
        }
    }
}
