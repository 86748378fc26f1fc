import Foundation

/// The file as decoded; turned into `ScrollScript`.
struct ScriptFile: Decodable {
    var viewport: ScrollScript.Viewport?
    var fps: Double
    var overdraw: Double
    var steps: [AnyStep]
    var register: [ScrollScript.Registration]
    var keptViews: KeptViews?
    var caretBlink: Double?
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
        let c = try StrictContainer(decoder, allowed: ["viewport", "fps", "overdraw", "steps", "register", "keptViews", "caretBlink", "theme", "textSize", "direction"])
        appearance = try Appearance.decode(c)
        register = try c.optional([ScrollScript.Registration].self, "register") ?? []
        keptViews = try c.optional(KeptViews.self, "keptViews")
        caretBlink = try c.has("caretBlink") ? c.number("caretBlink", in: 0.05...60) : nil
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
        scale = try c.number("scale", default: 1, in: ScrollScript.Viewport.scales)
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
