import Foundation

/// Compares heading texts with a wanted title as a heading search does: ignoring case, whole or
/// contained. ASCII text is compared byte by byte (a far heading search reads thousands of plain
/// headings from the source); other text through Swift's Unicode lowercasing.
package struct HeadingMatch {
    let wanted: String
    let containing: Bool
    private let wantedBytes: [UInt8]
    private let wantedIsASCII: Bool

    init(wanted: String, containing: Bool) {
        self.wanted = wanted.lowercased()
        self.containing = containing
        wantedBytes = Array(self.wanted.utf8)
        wantedIsASCII = wantedBytes.allSatisfy { $0 < 0x80 }
    }

    package func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.allSatisfy({ $0 < 0x80 }) else {
            let lowered = String(decoding: text, as: UTF8.self).lowercased()
            return containing ? lowered.contains(wanted) : lowered == wanted
        }
        // Lowercasing keeps ASCII ASCII: a wanted title with other letters matches no ASCII text.
        guard wantedIsASCII else { return false }
        func equal(at offset: Int) -> Bool {
            wantedBytes.indices.allSatisfy { Self.lower(text[offset + $0]) == wantedBytes[$0] }
        }
        if !containing { return text.count == wantedBytes.count && equal(at: 0) }
        guard text.count >= wantedBytes.count else { return false }
        return (0...(text.count - wantedBytes.count)).contains(where: equal)
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
