import TextReelMarkdown
/// A small command-line parser: positional arguments, `--name value` / `--name=value` options and
/// flags, checked against what the command accepts.
struct Arguments {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    struct UsageError: Error { let message: String }

    init(_ raw: [String], options optionList: [String], flags flagList: [String]) throws {
        let options = Set(optionList), allowedFlags = Set(flagList)
        var i = 0
        while i < raw.count {
            let arg = raw[i]
            i += 1
            guard arg.hasPrefix("--"), arg.count > 2 else {
                if arg.hasPrefix("-") && arg != "-" && arg != "-h" {
                    throw UsageError(message: "unknown option '\(arg)'")
                }
                if arg == "-h" { flags.insert("help") } else { positional.append(arg) }
                continue
            }
            var name = String(arg.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if allowedFlags.contains(name) || name == "help" {
                if value != nil { throw UsageError(message: "option --\(name) takes no value") }
                flags.insert(name)
            } else if options.contains(name) {
                if value == nil {
                    guard i < raw.count else { throw UsageError(message: "option --\(name) needs a value") }
                    value = raw[i]
                    i += 1
                }
                if let earlier = values[name], earlier != value {
                    Terminal.error("textreel: warning: --\(name) is given twice ('\(earlier)', then '\(value!)'); the last one counts")
                }
                values[name] = value
            } else {
                throw UsageError(message: "unknown option '--\(name)'")
            }
        }
    }

    /// `--name`'s number, within `range` when given (the same range scripts and cases use).
    func double(_ name: String, default fallback: Double, in range: ClosedRange<Double>? = nil) throws -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text), value.isFinite else {
            throw UsageError(message: "--\(name) expects a number, got '\(text)'")
        }
        if let range, !range.contains(value) {
            throw UsageError(message: "--\(name) expects a number from \(NumberText.text(range.lowerBound)) to \(NumberText.text(range.upperBound)), got '\(text)'")
        }
        return value
    }
}
