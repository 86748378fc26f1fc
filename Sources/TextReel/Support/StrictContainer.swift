import Foundation

/// Any key, so that unknown keys can be found and named.
public struct AnyKey: CodingKey {
    public var stringValue: String
    public var intValue: Int?
    /// The key named `string`.
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

/// The one strict decoder of the project's JSON5 files (scripts, golden cases, themes): a
/// container that rejects unknown keys and impossible values with their path, which the JSON5
/// reader turns into a line and column.
public struct StrictContainer {
    /// The object's container, for reads the helpers below do not cover.
    public let container: KeyedDecodingContainer<AnyKey>

    /// The object `decoder` holds; throws at the first key not in `allowed`.
    public init(_ decoder: Decoder, allowed: [String]) throws {
        container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [key],
                debugDescription: "unknown key '\(key.stringValue)'; expected one of \(allowed.joined(separator: ", "))"))
        }
    }

    /// The keys the object has.
    public var keys: [String] { container.allKeys.map(\.stringValue) }
    /// Whether the object has `key`.
    public func has(_ key: String) -> Bool { container.contains(AnyKey(key)) }

    /// The value at `key`, nil when it is missing.
    public func optional<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        try container.decodeIfPresent(type, forKey: AnyKey(key))
    }

    /// The value at `key`; throws when it is missing.
    public func required<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
        try container.decode(type, forKey: AnyKey(key))
    }

    /// A finite number in `range` at `key`, else `fallback`; throws when missing without a fallback.
    public func number(_ key: String, default fallback: Double? = nil, in range: ClosedRange<Double>) throws -> Double {
        guard let value = try optional(Double.self, key) ?? fallback else {
            return try required(Double.self, key)
        }
        guard value.isFinite, range.contains(value) else {
            throw impossible(key, "\(Self.format(value)) is \(value < range.lowerBound ? "too small" : "too large"); expected \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return value
    }

    /// A paragraph number, or with `what` another count ("a character offset").
    public func index(_ key: String, what: String = "a paragraph number") throws -> Int {
        let value = try required(Double.self, key)
        let problem = value < 0 ? "is negative" : value != value.rounded() ? "is not a whole number" : value >= 1e9 ? "is too large" : nil
        if let problem {
            throw impossible(key, "\(Self.format(value)) \(problem); expected \(what), a whole number from 0 to 999999999")
        }
        return Int(value)
    }

    /// A number as a person writes it: 12, 0.5, 1e+12.
    public static func format(_ value: Double) -> String { NumberText.text(value) }

    /// The case named at `key`, else `fallback`; throws for a name not in `T.allCases`.
    public func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ key: String, default fallback: T) throws -> T where T.RawValue == String {
        guard let raw = try optional(String.self, key) else { return fallback }
        guard let value = T(rawValue: raw) else {
            throw impossible(key, "'\(raw)' is not allowed; expected one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// An error at `key` saying `message` (what is wrong and what was expected).
    public func impossible(_ key: String, _ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: container.codingPath + [AnyKey(key)], debugDescription: message))
    }
}
