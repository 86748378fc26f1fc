import Foundation
import TextReel

/// TeX math (`$…$`, `$$…$$`, fenced `math` blocks, as GitHub writes it) typeset by matplotlib's
/// mathtext (Debian's python3-matplotlib) into one outline path. Compared: MathJax and KaTeX
/// (GitHub's and most sites' engines) need a browser or packages from outside Debian; matplotlib's
/// mathtext is a TeX subset (fractions, roots, sums, integrals, scripts, Greek, accents, in
/// Computer Modern) that draws as paths: a pure function of the source, no fonts at draw time.
/// Environments it lacks (`\begin{pmatrix}`) are drawn as their source, marked, and warned about.
enum MathTypesetter {
    /// What the engine made of a formula: its box (height above the baseline, depth below) and
    /// its outline as "M x y L x y Q … C … Z" in points, y up from the baseline.
    struct Typeset: Hashable, Sendable {
        var width: Double, height: Double, depth: Double
        var path: String
        /// The coloured glyphs' outlines (`\color`, `\textcolor`), a line each: "r g b" (0–255),
        /// then the outline; empty when nothing is coloured.
        var colored: String = ""
    }

    /// The formula typeset at `size` points, or why it cannot be; `display`: set as a display
    /// formula (`$$…$$`), its fractions full size.
    static func typeset(_ tex: String, size: Double, display: Bool = false) -> Result<Typeset, Problem> {
        let tex = joinedLines(tex)
        if let tooLarge = Self.sizeProblem(of: tex) { return .failure(tooLarge) }
        guard let reply = PythonHelper.shared.exchange(["math": tex, "size": size, "display": display], about: "math '\(tex.prefix(40))'") else {
            return .failure(Problem(reason: "the math helper (Debian's python3 and python3-matplotlib) did not typeset it"))
        }
        guard reply["ok"] as? Bool == true, let width = reply["width"] as? Double, let height = reply["height"] as? Double,
              let depth = reply["depth"] as? Double, let path = reply["path"] as? String else {
            return .failure(Problem(reason: (reply["error"] as? String).map { "TeX the engine cannot draw (\($0))" } ?? "TeX the engine cannot draw"))
        }
        let colored = (reply["colored"] as? [[String: Any]] ?? []).compactMap { piece -> String? in
            guard let rgb = piece["rgb"] as? [Int], rgb.count == 3, let path = piece["path"] as? String else { return nil }
            return rgb.map(String.init).joined(separator: " ") + " " + path
        }
        return .success(Typeset(width: width.rounded(.up), height: height.rounded(.up), depth: depth.rounded(.up), path: path,
                                colored: colored.joined(separator: "\n")))
    }

    struct Problem: Error { var reason: String }

    /// A math attachment typeset, as the math kind's `prepare` (its paragraph's first layout);
    /// one the engine cannot typeset becomes its source, the reason its problem (a warning in
    /// the pass that laid it out).
    @Sendable static func prepared(_ pending: TextAttachment) -> TextAttachment {
        guard pending.parameters[MathAttachment.pathKey] == nil, pending.problem == nil else { return pending }
        let display = pending.parameters[MathAttachment.displayKey] != nil
        var parameters = pending.parameters
        switch typeset(pending.altText, size: display ? 17 : 15, display: display) {
        case .success(let typeset):
            parameters[MathAttachment.pathKey] = typeset.path
            if !typeset.colored.isEmpty { parameters[MathAttachment.coloredKey] = typeset.colored }
            parameters[MathAttachment.depthKey] = NumberText.text(typeset.depth)
            return pending.with(size: CGSize(width: max(typeset.width, 1), height: max(typeset.height + typeset.depth, 1)), parameters: parameters)
        case .failure(let problem):
            let source = source(of: pending)
            parameters[MathAttachment.sourceKey] = source
            // DejaVu Sans Mono's advance is 0.602 em, the same for every character it has.
            let width = Double(source.count) * 0.602 * MathAttachment.sourceSize + 2 * MathAttachment.sourcePadding
            parameters[MathAttachment.depthKey] = NumberText.text((MathAttachment.sourceSize * 0.4).rounded())
            return pending.with(size: CGSize(width: width.rounded(.up), height: (MathAttachment.sourceSize * 1.5).rounded()), parameters: parameters,
                                problem: "math: \(problem.reason); drawn as its source")
        }
    }

    /// What a formula the engine cannot draw shows: its source between its fences on one line.
    static func source(of attachment: TextAttachment) -> String {
        let fence = attachment.parameters[MathAttachment.displayKey] != nil ? "$$" : "$"
        return fence + MathTypesetter.joinedLines(attachment.altText) + fence
    }

    /// The formula on one line: a line break is a space to TeX; mathtext takes none. A formula's
    /// lines inside a quote start with the quote's markers (`> `), which are Markdown's, not TeX's.
    static func joinedLines(_ tex: String) -> String {
        tex.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map { $0.offset == 0 ? $0.element : Self.withoutQuoteMarkers($0.element) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The most a formula may hold: typesetting time grows with cells and nesting (a 20 × 20
    /// matrix takes seconds, 100 × 100 minutes; 20,000 characters of `\text` took 21 s and
    /// 800 MB), so past these a formula is drawn as its source, with a warning.
    static let maximumLength = 4_000, maximumCells = 400, maximumNesting = 32

    /// Why `tex` is too large to typeset, or nil.
    static func sizeProblem(of tex: String) -> Problem? {
        let utf8 = tex.utf8
        if utf8.count > maximumLength {
            return Problem(reason: "a formula of \(utf8.count) bytes, more than \(maximumLength), is not typeset")
        }
        var cells = 1, depth = 0, deepest = 0, previous: UInt8 = 0
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&") where previous != UInt8(ascii: "\\"): cells += 1
            case UInt8(ascii: "\\") where previous == UInt8(ascii: "\\"): cells += 1; previous = 0; continue
            case UInt8(ascii: "{") where previous != UInt8(ascii: "\\"): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "}") where previous != UInt8(ascii: "\\"): depth -= 1
            default: break
            }
            previous = byte
        }
        if cells > maximumCells { return Problem(reason: "a formula of about \(cells) cells, more than \(maximumCells), is not typeset") }
        if deepest > maximumNesting { return Problem(reason: "a formula nested \(deepest) braces deep, more than \(maximumNesting), is not typeset") }
        return nil
    }

    /// A formula's later line without the quote markers before it (spaces, then `>` and an
    /// optional space, any number of times): in Markdown a line starting so is a quote's.
    static func withoutQuoteMarkers(_ line: Substring) -> Substring {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        while rest.first == ">" {
            rest = rest.dropFirst()
            rest = rest.drop { $0 == " " || $0 == "\t" }
        }
        return rest
    }
}

extension AttachmentKinds {
    /// These kinds with formulas typeset by `MathTypesetter` when laid out (unless the math
    /// kind has a `prepare` of its own, or there is none).
    func typesettingMath() -> AttachmentKinds {
        var kinds = self
        if kinds.kinds["math"]?.prepare == nil { kinds.kinds["math"]?.prepare = MathTypesetter.prepared }
        return kinds
    }
}
