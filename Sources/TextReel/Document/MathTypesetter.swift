import Foundation

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
    }

    /// The formula typeset at `size` points, or why it cannot be; `display`: set as a display
    /// formula (`$$…$$`), its fractions full size.
    static func typeset(_ tex: String, size: Double, display: Bool = false) -> Result<Typeset, Problem> {
        // A line break is a space to TeX; mathtext takes none. A formula's lines inside a quote
        // start with the quote's markers (`> `), which are Markdown's, not TeX's.
        let tex = tex.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map { $0.offset == 0 ? $0.element : Self.withoutQuoteMarkers($0.element) }.filter { !$0.isEmpty }.joined(separator: " ")
        guard let reply = PythonHelper.shared.exchange(["math": tex, "size": size, "display": display]) else {
            return .failure(Problem(reason: "no TeX math engine (Debian's python3-matplotlib) is installed"))
        }
        guard reply["ok"] as? Bool == true, let width = reply["width"] as? Double, let height = reply["height"] as? Double,
              let depth = reply["depth"] as? Double, let path = reply["path"] as? String else {
            return .failure(Problem(reason: (reply["error"] as? String).map { "TeX the engine cannot draw (\($0))" } ?? "TeX the engine cannot draw"))
        }
        return .success(Typeset(width: width.rounded(.up), height: height.rounded(.up), depth: depth.rounded(.up), path: path))
    }

    struct Problem: Error { var reason: String }

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
