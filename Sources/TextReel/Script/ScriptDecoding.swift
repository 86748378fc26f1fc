import Foundation

/// Any key, so that unknown keys can be found and named.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

/// A decoding container that rejects unknown keys and impossible values with their path.
struct StrictContainer {
    let container: KeyedDecodingContainer<AnyKey>

    init(_ decoder: Decoder, allowed: [String]) throws {
        container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [key],
                debugDescription: "unknown key '\(key.stringValue)'; expected one of \(allowed.joined(separator: ", "))"))
        }
    }

    var keys: [String] { container.allKeys.map(\.stringValue) }
    func has(_ key: String) -> Bool { container.contains(AnyKey(key)) }

    func optional<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        try container.decodeIfPresent(type, forKey: AnyKey(key))
    }

    func required<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
        try container.decode(type, forKey: AnyKey(key))
    }

    func number(_ key: String, default fallback: Double? = nil, in range: ClosedRange<Double>) throws -> Double {
        guard let value = try optional(Double.self, key) ?? fallback else {
            return try required(Double.self, key)
        }
        guard value.isFinite, range.contains(value) else {
            throw impossible(key, "\(Self.format(value)) is \(value < range.lowerBound ? "too small" : "too large"); expected \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))")
        }
        return value
    }

    /// A paragraph number, or with `what` another count ("a character offset").
    func index(_ key: String, what: String = "a paragraph number") throws -> Int {
        let value = try required(Double.self, key)
        let problem = value < 0 ? "is negative" : value != value.rounded() ? "is not a whole number" : value >= 1e9 ? "is too large" : nil
        if let problem {
            throw impossible(key, "\(Self.format(value)) \(problem); expected \(what), a whole number from 0 to 999999999")
        }
        return Int(value)
    }

    /// A number as a person writes it: 12, 0.5, 1e+12.
    static func format(_ value: Double) -> String { NumberText.text(value) }

    func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ key: String, default fallback: T) throws -> T where T.RawValue == String {
        guard let raw = try optional(String.self, key) else { return fallback }
        guard let value = T(rawValue: raw) else {
            throw impossible(key, "'\(raw)' is not allowed; expected one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    func impossible(_ key: String, _ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: container.codingPath + [AnyKey(key)], debugDescription: message))
    }
}

/// The file as decoded; turned into `ScrollScript`.
struct ScriptFile: Decodable {
    var viewport: ScrollScript.Viewport?
    var fps: Double
    var overdraw: Double
    var steps: [AnyStep]
    var register: [ScrollScript.Registration]
    var keptViews: KeptViews?
    var appearance = Appearance()

    struct KeptViews: Decodable {
        var count: Int?
        var bytes: Int?
        init(from decoder: Decoder) throws {
            let c = try StrictContainer(decoder, allowed: ["count", "bytes"])
            count = try c.has("count") ? Int(c.number("count", in: 0...100_000)) : nil
            bytes = try c.has("bytes") ? Int(c.number("bytes", in: 0...1e12)) : nil
        }
    }

    init(from decoder: Decoder) throws {
        let c = try StrictContainer(decoder, allowed: ["viewport", "fps", "overdraw", "steps", "register", "keptViews", "theme", "textSize", "direction"])
        appearance = try Appearance.decode(c)
        register = try c.optional([ScrollScript.Registration].self, "register") ?? []
        keptViews = try c.optional(KeptViews.self, "keptViews")
        viewport = try c.optional(ScrollScript.Viewport.self, "viewport")
        fps = try c.number("fps", default: 30, in: 1...ScrollScript.maximumFPS)
        overdraw = try c.number("overdraw", default: 0.5, in: 0...4)
        steps = try c.optional([AnyStep].self, "steps") ?? []
    }
}

extension ScrollScript.Viewport: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try StrictContainer(decoder, allowed: ["width", "height", "scale"])
        width = try c.number("width", in: 1...16384)
        height = try c.number("height", in: 1...16384)
        scale = try c.number("scale", default: 1, in: 0.25...8)
    }
}

extension ScrollScript.Registration: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try StrictContainer(decoder, allowed: ["provider", "policies"])
        provider = try c.required(String.self, "provider")
        let providers = decoder.userInfo[.attachmentProviders] as? AttachmentProviders ?? AttachmentProviders()
        guard providers.type(named: provider) != nil else {
            throw c.impossible("provider", "unknown provider '\(provider)'; expected one of \(providers.schemes.joined(separator: ", "))")
        }
        var policy = ReusePolicy()
        for name in try c.required([String].self, "policies") {
            guard let one = ReusePolicy(name: name) else {
                throw c.impossible("policies", "unknown policy '\(name)'; expected \(ReusePolicy.names.joined(separator: " or "))")
            }
            policy.formUnion(one)
        }
        self.policy = policy
    }
}

/// A step of any kind, read by the kind its one key names.
struct AnyStep: Decodable {
    let step: any ScriptStep

    init(from decoder: Decoder) throws {
        let names = ScriptSteps.keys
        let c = try StrictContainer(decoder, allowed: names)
        guard c.keys.count == 1, let key = c.keys.first, let kind = ScriptSteps.kind(forKey: key) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a step has exactly one of \(names.joined(separator: ", "))"))
        }
        step = try kind.decode(key, from: StepSource(step: c, key: key))
    }
}

extension Appearance {
    /// `theme:`, `textSize:` and `direction:` of a script or a golden case.
    static func decode(_ c: StrictContainer) throws -> Appearance {
        var appearance = Appearance(theme: try c.optional(String.self, "theme"))
        if let size = try c.optional(String.self, "textSize") {
            guard let parsed = TextSize(name: size) else {
                throw c.impossible("textSize", "unknown text size '\(size)'; expected one of \(TextSize.names)")
            }
            appearance.textSize = parsed
        }
        if c.has("direction") { appearance.direction = try c.choice(Theme.LayoutDirection.self, "direction", default: .leftToRight) }
        return appearance
    }
}
