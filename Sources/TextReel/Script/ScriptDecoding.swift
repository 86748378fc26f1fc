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
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)".replacingOccurrences(of: ".0e", with: "e")
    }

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
    var steps: [ScrollScript.Step]
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
        steps = try c.optional([ScrollScript.Step].self, "steps") ?? []
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

extension ScrollScript.Step: Decodable {
    static let names = ["scroll", "fling", "wait", "edit", "resize", "setNeedsLayout", "snapshot", "register",
                        "play", "pause", "seek", "focus", "blur", "type", "toggle", "slide", "stroke"]

    public init(from decoder: Decoder) throws {
        let c = try StrictContainer(decoder, allowed: Self.names)
        guard c.keys.count == 1, let name = c.keys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a step has exactly one of \(Self.names.joined(separator: ", "))"))
        }
        let nested = { try c.container.superDecoder(forKey: AnyKey(name)) }
        switch name {
        case "scroll":
            self = try Self.scroll(StrictContainer(nested(), allowed: ["to", "by", "toParagraph", "toHeading", "toAttachment", "duration", "curve", "align", "exact"]))
        case "fling":
            let f = try StrictContainer(nested(), allowed: ["velocity", "deceleration"])
            self = .fling(velocity: try f.number("velocity", in: -100_000...100_000),
                          deceleration: try f.choice(ScrollScript.Deceleration.self, "deceleration", default: .normal))
        case "wait":
            self = .wait(try c.number(name, in: 0...3600))
        case "edit":
            self = .edit(try Self.edit(StrictContainer(nested(), allowed: ["paragraph", "insert", "at", "delete", "insertParagraph", "after", "deleteParagraph"])))
        case "resize":
            let r = try StrictContainer(nested(), allowed: ["width", "height"])
            self = .resize(width: try r.number("width", in: 1...16384), height: try r.number("height", in: 1...16384))
        case "register":
            self = .register(try c.required([ScrollScript.Registration].self, name))
        case "play", "pause", "focus", "blur", "toggle":
            let id = try c.required(String.self, name)
            let action: AttachmentAction = switch name {
            case "play": .play
            case "pause": .pause
            case "focus": .focus
            case "blur": .blur
            default: .toggle
            }
            self = .attachment(id: id, action)
        case "seek", "slide":
            let a = try StrictContainer(nested(), allowed: ["id", "to"])
            let to = try a.number("to", in: name == "seek" ? 0...1e6 : 0...1)
            self = .attachment(id: try a.required(String.self, "id"), name == "seek" ? .seek(to) : .slide(to))
        case "type":
            let a = try StrictContainer(nested(), allowed: ["id", "text"])
            self = .attachment(id: try a.required(String.self, "id"), .type(try a.required(String.self, "text")))
        case "stroke":
            let a = try StrictContainer(nested(), allowed: ["id", "points"])
            let raw = try a.required([[Double]].self, "points")
            guard !raw.isEmpty, raw.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isFinite) }) else {
                throw a.impossible("points", "expected a list of [x, y] pairs")
            }
            self = .attachment(id: try a.required(String.self, "id"), .stroke(raw.map { CGPoint(x: $0[0], y: $0[1]) }))
        case "setNeedsLayout":
            guard try c.required(Bool.self, name) else { throw c.impossible(name, "expected true") }
            self = .setNeedsLayout
        default:
            self = .snapshot(try c.required(String.self, name))
        }
    }

    private static func scroll(_ s: StrictContainer) throws -> Self {
        let targets = ["to", "by", "toParagraph", "toHeading", "toAttachment"].filter(s.has)
        guard targets.count == 1 else {
            throw s.impossible(targets.dropFirst().first ?? "to", "a scroll has exactly one of to, by, toParagraph, toHeading, toAttachment")
        }
        let align = try s.choice(ScrollScript.Align.self, "align", default: .top)
        if s.has("exact") && targets.first != "to" {
            throw s.impossible("exact", "exact goes with an absolute target (to: y); toParagraph, toHeading and toAttachment always land exactly")
        }
        let target: ScrollScript.ScrollTarget = switch targets[0] {
        case "to": .to(try s.number("to", in: 0...1e12), exact: try s.optional(Bool.self, "exact") ?? false)
        case "by": .by(try s.number("by", in: -1e12...1e12))
        case "toParagraph": .toParagraph(try s.index("toParagraph"), align)
        case "toHeading": .toHeading(try s.required(String.self, "toHeading"), align)
        default: .toAttachment(try s.required(String.self, "toAttachment"), align)
        }
        return .scroll(target, duration: try s.number("duration", default: 0, in: 0...3600),
                       curve: try s.choice(ScrollScript.Curve.self, "curve", default: .easeInOut))
    }

    private static func edit(_ e: StrictContainer) throws -> ScrollScript.Edit {
        if e.has("insertParagraph") {
            return .insertParagraph(markdown: try e.required(String.self, "insertParagraph"),
                                    after: Int(try e.number("after", in: -1...1e9)))
        }
        if e.has("deleteParagraph") { return .deleteParagraph(try e.index("deleteParagraph")) }
        let paragraph = try e.index("paragraph")
        if e.has("insert") {
            return .insert(paragraph: paragraph, text: try e.required(String.self, "insert"),
                           at: e.has("at") ? try e.index("at", what: "a character offset") : 0)
        }
        if e.has("delete") {
            let d = try StrictContainer(e.container.superDecoder(forKey: AnyKey("delete")), allowed: ["from", "length"])
            return .delete(paragraph: paragraph, from: try d.index("from", what: "a character offset"),
                           length: try d.index("length", what: "a number of characters"))
        }
        throw e.impossible("paragraph", "an edit needs insert, delete, insertParagraph or deleteParagraph")
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
