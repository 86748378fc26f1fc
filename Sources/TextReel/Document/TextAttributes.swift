import Foundation

/// The attribute keys TextReel lays out, with UIKit's names (Foundation on Linux has none of
/// them). Any other key is kept and read back with `attribute(_:at:effectiveRange:)`.
extension NSAttributedString.Key {
    /// A `Font`.
    public static let font = NSAttributedString.Key("NSFont")
    /// A `Color` for the text.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// A `Color` behind the text.
    public static let backgroundColor = NSAttributedString.Key("NSBackgroundColor")
    /// A number: non-zero underlines.
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
    /// A number: non-zero strikes through.
    public static let strikethroughStyle = NSAttributedString.Key("NSStrikethrough")
    /// A number of points added between characters.
    public static let kern = NSAttributedString.Key("NSKern")
    /// A number of points the text is raised by.
    public static let baselineOffset = NSAttributedString.Key("NSBaselineOffset")
    /// A link target, as a `String` or `URL`.
    public static let link = NSAttributedString.Key("NSLink")
}

/// One attribute's value, as a paragraph keeps it (hashable, so paragraphs stay values).
public enum AttributeValue: Hashable, Sendable {
    /// A number (`kern`, `underlineStyle`, …).
    case number(Double)
    /// A string (a `link` target, custom keys).
    case string(String)
    /// A boolean (a Swift `Bool`, not a number).
    case bool(Bool)
    /// A `Color` (`foregroundColor`, `backgroundColor`).
    case color(Color)
    /// A `Font`.
    case font(Font)
    /// A `ParagraphStyle`'s values.
    case paragraphStyle(ParagraphStyle.Values)

    /// From what an `NSAttributedString` holds (nil: a kind of value TextReel does not keep).
    public init?(_ value: Any) {
        switch value {
        case let v as Color: self = .color(v)
        case let v as Font: self = .font(v)
        case let v as ParagraphStyle: self = .paragraphStyle(v.values)
        case let v as String: self = .string(v)
        case let v as URL: self = .string(v.absoluteString)
        // Swift's own Bool only: an Int or an NSNumber would also cast to Bool.
        case let v as Bool where type(of: value) == Bool.self: self = .bool(v)
        case let v as NSNumber where String(cString: v.objCType) == "c": self = .bool(v.boolValue)
        case let v as NSNumber: self = .number(v.doubleValue)
        default: return nil
        }
    }

    /// As an `NSAttributedString` holds it: numbers and booleans as `NSNumber`.
    public var object: Any {
        switch self {
        case .number(let v): NSNumber(value: v)
        case .string(let v): v
        case .bool(let v): NSNumber(value: v)
        case .color(let v): v
        case .font(let v): v
        case .paragraphStyle(let v): MutableParagraphStyle(v)
        }
    }

    var number: Double? {
        switch self {
        case .number(let v): v
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }
}

/// Attributes over a range of a paragraph's text, in UTF-8 byte offsets (Pango's unit).
public struct AttributeRun: Hashable, Sendable {
    /// The text covered, in UTF-8 byte offsets.
    public var range: Range<Int>
    /// By key name (`NSAttributedString.Key.rawValue`).
    public var attributes: [String: AttributeValue]

    /// Attributes over `range` (UTF-8 byte offsets).
    public init(range: Range<Int>, attributes: [String: AttributeValue]) {
        self.range = range; self.attributes = attributes
    }
}

extension TextParagraph {
    /// A paragraph of `attributedString`'s text and attributes (`NSTextParagraph(attributedString:)`);
    /// a trailing line break is the paragraph's end, not its text. Its identity comes from the
    /// paragraph it stands for when a content-storage delegate returns it.
    public init(attributedString: NSAttributedString) {
        var string = attributedString.string
        if string.hasSuffix("\n") { string.removeLast() }
        let utf16Length = string.utf16.count
        var runs: [AttributeRun] = []
        attributedString.enumerateAttributes(in: NSRange(location: 0, length: utf16Length), options: []) { attributes, range, _ in
            var kept: [String: AttributeValue] = [:]
            for (key, value) in attributes { if let v = AttributeValue(value) { kept[key.rawValue] = v } }
            guard !kept.isEmpty, let bytes = Self.utf8Range(of: range, in: string) else { return }
            runs.append(AttributeRun(range: bytes, attributes: kept))
        }
        self.init(id: ParagraphID(-1), kind: .body, text: string, attributes: runs)
    }

    /// The text with its attribute runs and links, in UTF-16 offsets as Foundation counts.
    public var attributedString: NSAttributedString { mutableAttributedString() }

    /// The same, made afresh for a caller that adds to it. Callers add to this rather than copy
    /// an attributed string: a copy (`NSMutableAttributedString(attributedString:)`) shares the
    /// original's attribute dictionaries, and adding to copies of short-lived strings crashed
    /// now and then inside CoreFoundation's run array, comparing a dictionary that was gone.
    func mutableAttributedString() -> NSMutableAttributedString {
        let result = NSMutableAttributedString(string: text)
        for run in runs where run.link != nil {
            if let range = Self.utf16Range(of: run.range, in: text) { result.addAttribute(.link, value: run.link!, range: range) }
        }
        for run in attributes {
            guard let range = Self.utf16Range(of: run.range, in: text) else { continue }
            for (key, value) in run.attributes { result.addAttribute(NSAttributedString.Key(key), value: value.object, range: range) }
        }
        return result
    }

    /// The value of `key` at UTF-16 offset `location` of the text, as `NSAttributedString` answers.
    public func attribute(_ key: NSAttributedString.Key, at location: Int, effectiveRange range: NSRangePointer?) -> Any? {
        let string = attributedString
        guard location >= 0, location < string.length else { return nil }
        return string.attribute(key, at: location, effectiveRange: range)
    }

    /// The attributes of the runs over UTF-8 offset `offset`, by key name.
    func attributes(at offset: Int) -> [String: AttributeValue] {
        attributes.filter { $0.range.contains(offset) }.reduce(into: [:]) { $0.merge($1.attributes) { _, new in new } }
    }

    static func utf8Range(of range: NSRange, in text: String) -> Range<Int>? {
        let utf16 = text.utf16
        guard range.location >= 0, range.location + range.length <= utf16.count,
              let start = utf16.index(utf16.startIndex, offsetBy: range.location, limitedBy: utf16.endIndex).flatMap({ $0.samePosition(in: text.utf8) }),
              let end = utf16.index(utf16.startIndex, offsetBy: range.location + range.length, limitedBy: utf16.endIndex).flatMap({ $0.samePosition(in: text.utf8) })
        else { return nil }
        return text.utf8.distance(from: text.utf8.startIndex, to: start)..<text.utf8.distance(from: text.utf8.startIndex, to: end)
    }

    static func utf16Range(of range: Range<Int>, in text: String) -> NSRange? {
        let utf8 = text.utf8
        guard range.lowerBound >= 0, range.upperBound <= utf8.count,
              let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound, limitedBy: utf8.endIndex)?.samePosition(in: text.utf16),
              let end = utf8.index(utf8.startIndex, offsetBy: range.upperBound, limitedBy: utf8.endIndex)?.samePosition(in: text.utf16)
        else { return nil }
        let location = text.utf16.distance(from: text.utf16.startIndex, to: start)
        return NSRange(location: location, length: text.utf16.distance(from: start, to: end))
    }
}

extension AttributeRun {
    /// `runs` (in order, none overlapping) with `change` made to the attributes over `range`:
    /// runs are cut at the range's ends, gaps inside it filled, empty runs dropped and equal
    /// neighbours joined.
    static func updating(_ runs: [AttributeRun], in range: Range<Int>, _ change: (inout [String: AttributeValue]) -> Void) -> [AttributeRun] {
        guard !range.isEmpty else { return runs }
        var cut: [AttributeRun] = []
        for run in runs {
            let r = run.range
            // Before the range, inside it, after it (each where there is any).
            let before = r.lowerBound..<max(r.lowerBound, min(r.upperBound, range.lowerBound))
            let inside = r.clamped(to: range)
            let after = min(r.upperBound, max(r.lowerBound, range.upperBound))..<r.upperBound
            for piece in [before, inside, after] where !piece.isEmpty {
                cut.append(AttributeRun(range: piece, attributes: run.attributes))
            }
        }
        var position = range.lowerBound
        for run in cut.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where run.range.overlaps(range) {
            if run.range.lowerBound > position { cut.append(AttributeRun(range: position..<run.range.lowerBound, attributes: [:])) }
            position = run.range.upperBound
        }
        if position < range.upperBound { cut.append(AttributeRun(range: position..<range.upperBound, attributes: [:])) }
        cut.sort { $0.range.lowerBound < $1.range.lowerBound }
        for k in cut.indices where range.contains(cut[k].range.lowerBound) { change(&cut[k].attributes) }
        var merged: [AttributeRun] = []
        for run in cut where !run.attributes.isEmpty {
            if let last = merged.last, last.range.upperBound == run.range.lowerBound, last.attributes == run.attributes {
                merged[merged.count - 1].range = last.range.lowerBound..<run.range.upperBound
            } else {
                merged.append(run)
            }
        }
        return merged
    }
}
