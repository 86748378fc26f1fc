import Foundation

/// One step of a generated script, kept as data so the explorer can shrink it (fewer steps,
/// smaller numbers) and write it as JSON5.
public struct ExploreStep: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case scrollTo, scrollBy, toParagraph, toHeading, toAttachment, fling, wait, insertText, deleteText
        case insertParagraph, deleteParagraph, resize, setNeedsLayout, attachment, register
    }

    public var kind: Kind
    /// The step's numbers, in the order `json5` uses them (see there).
    public var numbers: [Double]
    /// Its text: a heading, an attachment id, inserted text or Markdown, a provider name.
    public var text: String

    public init(_ kind: Kind, _ numbers: [Double] = [], text: String = "") {
        self.kind = kind; self.numbers = numbers; self.text = text
    }

    private static let curves = ScrollScript.Curve.allCases.map(\.rawValue)
    private static let aligns = ScrollScript.Align.allCases.map(\.rawValue)
    static let actions = ["play", "pause", "seek", "focus", "blur", "type", "toggle", "slide"]
    static let policies = [[], ["onScrollingOutOfViewport"], ["onEditingInlineParagraphs"],
                           ["onScrollingOutOfViewport", "onEditingInlineParagraphs"]]

    private func n(_ i: Int) -> Double { i < numbers.count ? numbers[i] : 0 }
    private func int(_ i: Int) -> Int { Int(n(i)) }
    private func pick(_ list: [String], _ i: Int) -> String { list[min(max(int(i), 0), list.count - 1)] }
    private func num(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.3f", v) }
    private var quoted: String {
        var s = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            default: s.unicodeScalars.append(scalar)
            }
        }
        return s + "\""
    }
    private func timed(_ target: String, _ duration: Double, _ curve: Int) -> String {
        duration > 0 ? "{scroll: {\(target), duration: \(num(duration)), curve: \"\(pick(Self.curves, curve))\"}}"
                     : "{scroll: {\(target)}}"
    }

    /// The step in the script language.
    public var json5: String {
        switch kind {
        case .scrollTo: timed("to: \(num(n(0)))", n(1), 2)
        case .scrollBy: timed("by: \(num(n(0)))", n(1), 2)
        case .toParagraph: "{scroll: {toParagraph: \(int(0)), align: \"\(pick(Self.aligns, 1))\"}}"
        case .toHeading: "{scroll: {toHeading: \(quoted), align: \"\(pick(Self.aligns, 0))\"}}"
        case .toAttachment: "{scroll: {toAttachment: \(quoted), align: \"\(pick(Self.aligns, 0))\"}}"
        case .fling: "{fling: {velocity: \(num(n(0))), deceleration: \"\(int(1) == 0 ? "normal" : "fast")\"}}"
        case .wait: "{wait: \(num(n(0)))}"
        case .insertText: "{edit: {paragraph: \(int(0)), insert: \(quoted), at: \(int(1))}}"
        case .deleteText: "{edit: {paragraph: \(int(0)), delete: {from: \(int(1)), length: \(int(2))}}}"
        case .insertParagraph: "{edit: {insertParagraph: \(quoted), after: \(int(0))}}"
        case .deleteParagraph: "{edit: {deleteParagraph: \(int(0))}}"
        case .resize: "{resize: {width: \(num(n(0))), height: \(num(n(1)))}}"
        case .setNeedsLayout: "{setNeedsLayout: true}"
        case .attachment:
            switch pick(Self.actions, 0) {
            case "seek": "{seek: {id: \(quoted), to: \(num(n(1)))}}"
            case "type": "{type: {id: \(quoted), text: \"Ada\"}}"
            case "slide": "{slide: {id: \(quoted), to: \(num(min(n(1), 1)))}}"
            case let action: "{\(action): \(quoted)}"
            }
        case .register:
            "{register: [{provider: \(quoted), policies: [\(Self.policies[min(int(0), 3)].map { "\"\($0)\"" }.joined(separator: ", "))]}]}"
        }
    }

    /// The least each number may shrink to (a viewport needs a size; a fling a speed).
    private var floors: [Double] {
        switch kind {
        case .resize: [100, 100]
        default: []
        }
    }

    /// Simpler versions of this step: each number set to its floor, or halved towards it.
    public var simplifications: [ExploreStep] {
        var out: [ExploreStep] = []
        for i in numbers.indices {
            let floor = i < floors.count ? floors[i] : 0
            for candidate in [floor, (numbers[i] + floor) / 2] {
                let value = (candidate * 1000).rounded(.towardZero) / 1000
                guard value != numbers[i], abs(value - floor) <= abs(numbers[i] - floor) else { continue }
                var simpler = self
                simpler.numbers[i] = value
                if simpler != self && !out.contains(simpler) { out.append(simpler) }
            }
        }
        return out
    }
}

/// A generated script: its settings and steps, written as JSON5.
public struct ExploreScript: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public var fps: Double
    public var steps: [ExploreStep]

    public var json5: String {
        var s = "{\n  viewport: {width: \(Int(width)), height: \(Int(height)), scale: 1},\n  fps: \(Int(fps)),\n  steps: [\n"
        for step in steps { s += "    \(step.json5),\n" }
        return s + "  ],\n}\n"
    }
}
