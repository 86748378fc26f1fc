import Foundation
import TextReel

/// The attachment URLs the index may trust without parsing them: a kind that says which values
/// it trusts (`AttachmentKind.trusts`: none that reads a file), its id in the path, and only the
/// keys it reads, each at most once, with values it trusts. Stricter than `AttachmentURL` (whole
/// numbers only, no escapes), so whatever passes here reads there without a warning or an error.
/// Byte by byte, since a generated document has an attachment every few paragraphs.
struct TrustedAttachmentURL: Sendable {
    private let kinds: [String: (keys: Set<String>, trusts: @Sendable (String, String) -> Bool)]

    /// Trusts nothing: every attachment is parsed.
    static let none = TrustedAttachmentURL(trusting: [:])

    private init(trusting kinds: [String: (keys: Set<String>, trusts: @Sendable (String, String) -> Bool)]) { self.kinds = kinds }

    init(_ kinds: AttachmentKinds) {
        var trusted: [String: (keys: Set<String>, trusts: @Sendable (String, String) -> Bool)] = [:]
        for (scheme, kind) in kinds.kinds {
            guard let trusts = kind.trusts, let keys = kind.readKeys else { continue }
            trusted[scheme] = (keys, trusts)
        }
        self.init(trusting: trusted)
    }

    /// Where the id is in `url`, or nil when only a parse can tell what the attachment is.
    func id(in url: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let colon = url.firstIndex(of: 0x3A), url.allSatisfy({ $0 < 0x80 && Self.urlBytes[Int($0)] != 0 }) else { return nil }
        let scheme = String(decoding: UnsafeRawBufferPointer(rebasing: url[..<colon]), as: UTF8.self)
        guard let kind = kinds[scheme] else { return nil }
        let mark = url[(colon + 1)...].firstIndex(of: 0x3F) ?? url.count
        let id = (colon + 1)..<mark
        guard !id.isEmpty, url[id].allSatisfy({ Self.idBytes[Int($0)] != 0 }) else { return nil }
        var seen: [String] = []
        for pair in url[min(mark + 1, url.count)...].split(separator: 0x26) {
            guard let equals = pair.firstIndex(of: 0x3D) else { return nil }
            let key = String(decoding: UnsafeRawBufferPointer(rebasing: url[pair.startIndex..<equals]), as: UTF8.self)
            let value = UnsafeRawBufferPointer(rebasing: url[(equals + 1)..<pair.endIndex])
            guard !seen.contains(key) else { return nil }
            seen.append(key)
            if key == "size" {
                guard let x = value.firstIndex(of: 0x78), let w = Self.wholeNumber(value[..<x]), let h = Self.wholeNumber(value[(x + 1)...]),
                      (1...Int(AttachmentURL.maximumSide)).contains(w), (1...Int(AttachmentURL.maximumSide)).contains(h) else { return nil }
            } else {
                guard kind.keys.contains(key), kind.trusts(key, String(decoding: value, as: UTF8.self)) else { return nil }
            }
        }
        return id
    }

    /// Up to six decimal digits, nothing else.
    private static func wholeNumber(_ digits: Slice<UnsafeRawBufferPointer>) -> Int? {
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }


    /// Bytes a trusted URL may hold: no entity, escape or percent sign; and those of its id.
    private static let urlBytes = table("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:?=&_-.")
    private static let idBytes = table("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")

    private static func table(_ allowed: String) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 128)
        for c in allowed.utf8 { table[Int(c)] = 1 }
        return table
    }
}
