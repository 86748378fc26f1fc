/// Finds where a value sits in JSON5 text, given the coding path a decoder reported, so that script
/// errors can name line and column. Foundation's decoder reports paths, not positions; this
/// hand-written scanner only walks the syntax (comments, quoted and bare keys, strings, arrays,
/// objects) to find positions — parsing itself is Foundation's.
struct JSON5Locator {
    private let bytes: [UInt8]
    private var i = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    /// 1-based (line, column) of the value at `path` (or of the deepest part found).
    static func position(of path: [String], in text: String) -> (line: Int, column: Int) {
        var locator = JSON5Locator(text)
        let offset = locator.find(path[...]) ?? 0
        return locator.lineColumn(offset)
    }

    /// (line, column) of every item of the array at `path`, in one scan of the text (a script of
    /// 40,000 steps located step by step took minutes).
    static func positions(ofItemsIn path: [String], in text: String) -> [(line: Int, column: Int)] {
        var locator = JSON5Locator(text)
        // `find` gives the key's position: the array starts after its colon.
        guard var start = locator.find(path[...]) else { return [] }
        while start < locator.bytes.count, locator.bytes[start] != UInt8(ascii: "[") { start += 1 }
        guard start < locator.bytes.count else { return [] }
        locator.i = start + 1
        var offsets: [Int] = []
        while true {
            locator.skipSpace()
            guard locator.i < locator.bytes.count, locator.bytes[locator.i] != UInt8(ascii: "]") else { break }
            let itemStart = locator.i
            offsets.append(itemStart)
            locator.skipValue()
            locator.skipSpace()
            if locator.i < locator.bytes.count, locator.bytes[locator.i] == UInt8(ascii: ",") { locator.i += 1 }
            if locator.i == itemStart { break }   // no progress: malformed, give up
        }
        // Offsets ascend: one forward pass turns them all into lines and columns.
        var result: [(line: Int, column: Int)] = []
        result.reserveCapacity(offsets.count)
        var line = 1, column = 1, at = 0
        for offset in offsets {
            while at < offset {
                let b = locator.bytes[at]
                if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
                at += 1
            }
            result.append((line, column))
        }
        return result
    }

    private func lineColumn(_ offset: Int) -> (Int, Int) {
        var line = 1, column = 1
        for b in bytes[..<min(offset, bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    private mutating func find(_ path: ArraySlice<String>) -> Int? {
        skipSpace()
        let start = i
        guard let step = path.first else { return start }
        guard i < bytes.count else { return start }
        if bytes[i] == UInt8(ascii: "{") {
            i += 1
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] != UInt8(ascii: "}") else { return start }
                let keyStart = i
                defer { if i == keyStart { i = bytes.count } }   // no progress: malformed, give up
                let key = readKey()
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: ":") { i += 1 }
                if key == step {
                    if path.count == 1 { skipSpace(); return keyStart }
                    return find(path.dropFirst()) ?? keyStart
                }
                skipValue()
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1 }
            }
        }
        if bytes[i] == UInt8(ascii: "["), let target = Int(step.hasPrefix("Index ") ? String(step.dropFirst(6)) : step) {
            i += 1
            var index = 0
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] != UInt8(ascii: "]") else { return start }
                let itemStart = i
                defer { if i == itemStart { i = bytes.count } }   // no progress: malformed, give up
                if index == target { return path.count == 1 ? i : (find(path.dropFirst()) ?? i) }
                skipValue()
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1 }
                index += 1
            }
        }
        return start
    }

    private mutating func readKey() -> String {
        guard i < bytes.count else { return "" }
        if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
            let start = i + 1
            skipString()
            return String(decoding: bytes[start..<max(start, i - 1)], as: UTF8.self)
        }
        let start = i
        while i < bytes.count, !":, \t\r\n{}[]".utf8.contains(bytes[i]) { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func skipString() {
        let quote = bytes[i]
        i += 1
        while i < bytes.count, bytes[i] != quote {
            i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        i += 1
    }

    private mutating func skipValue() {
        skipSpace()
        guard i < bytes.count else { return }
        switch bytes[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                skipSpace()
                guard i < bytes.count else { return }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { skipString(); continue }
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { depth += 1 }
                if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") { depth -= 1 }
                i += 1
            } while depth > 0
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            skipString()
        default:
            while i < bytes.count, !",}] \t\r\n".utf8.contains(bytes[i]) { i += 1 }
        }
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1; continue }
            if b == UInt8(ascii: "/"), i + 1 < bytes.count {
                if bytes[i + 1] == UInt8(ascii: "/") {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    continue
                }
                if bytes[i + 1] == UInt8(ascii: "*") {
                    i += 2
                    while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                    i += 2
                    continue
                }
            }
            return
        }
    }
}
