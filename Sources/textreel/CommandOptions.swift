import Foundation
import TextReelGolden

/// Every command's options (which take a value) and flags: what each command parses, and what
/// `textreel completions` offers, from one table so the two never disagree.
struct CommandOptions {
    let name: String
    let summary: String
    let options: [String]
    let flags: [String]

    static let render = CommandOptions(name: "render", summary: "render frames of a document",
        options: ["out", "width", "height", "scale", "at", "script", "frames", "shard", "video", "animation", "chart", "format", "compression", "budget"]
            + LimitOptions.names + AppearanceOptions.names,
        flags: ["overlay", "quiet", "verbose", "contact-sheet", "serial", "strict", "exact", "watch"] + LimitOptions.flags)
    static let diff = CommandOptions(name: "diff", summary: "compare two PNGs pixel by pixel",
        options: ["out", "threshold", "alpha"], flags: ["include-aa", "diff-mask", "json"])
    static let test = CommandOptions(name: "test", summary: "run golden-image suites",
        options: ["update", "shard", "report", "junit", "json", "workers", "blob"] + AppearanceOptions.names,
        flags: ["quiet", "prune", "fail-on-update", "watch"])
    static let report = CommandOptions(name: "report", summary: "serve a report with accept buttons", options: ["port"], flags: ["serve"])
    static let review = CommandOptions(name: "review", summary: "walk the failing frames in the terminal", options: [], flags: [])
    static let mergeReports = CommandOptions(name: "merge-reports", summary: "merge the blobs of sharded test runs",
        options: ["report", "junit", "json"], flags: [])
    static let mergeRenders = CommandOptions(name: "merge-renders", summary: "join the parts of a sharded render", options: ["out"], flags: [])
    static let preview = CommandOptions(name: "preview", summary: "show where every fragment sits, in the terminal",
        options: ["script", "frame", "at", "width", "height"] + LimitOptions.names + AppearanceOptions.names,
        flags: ["json", "interactive", "watch", "image"] + LimitOptions.flags)
    static let generate = CommandOptions(name: "generate", summary: "write a generated Markdown document", options: ["out"], flags: [])
    static let explore = CommandOptions(name: "explore", summary: "run random scripts and shrink a failing one",
        options: ["seed", "runs", "steps", "time", "budget", "out", "timeout", "candidate", "shrink-time"], flags: ["quiet"])
    static let version = CommandOptions(name: "version", summary: "print the version and the libraries", options: [], flags: [])
    static let completions = CommandOptions(name: "completions", summary: "print shell completions (bash, zsh, fish)", options: [], flags: [])

    static let all: [CommandOptions] = [render, diff, test, report, review, mergeReports, mergeRenders, preview, generate, explore, version, completions]

    /// Values some options take from a fixed list, for completion.
    static let choices: [String: [String]] = [
        "theme": ["light", "dark", "editor"], "text-size": ["XS", "S", "M", "L", "XL", "XXL", "XXXL", "A1", "A2", "A3", "A4", "A5"],
        "direction": ["ltr", "rtl"], "update": GoldenSuite.UpdateMode.allCases.map(\.rawValue), "compression": ["fast", "small", "none"],
    ]
}

extension Arguments {
    /// `raw` read with `command`'s options and flags.
    init(_ raw: [String], command: CommandOptions) throws {
        try self.init(raw, options: command.options, flags: command.flags)
    }
}

/// `textreel completions bash|zsh|fish`: completion scripts for every command and its options,
/// written from `CommandOptions` (make install puts them where each shell looks).
enum CompletionsCommand {
    static let help = """
    Usage: textreel completions bash|zsh|fish

    Prints a completion script for the shell: commands, their options and the values options
    take from a fixed list (themes, text sizes, directions, update modes, compressions).
    make install writes all three where the shells look.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .completions)
        if args.flags.contains("help") { print(help); return 0 }
        guard args.positional.count == 1, let shell = args.positional.first else {
            throw Arguments.UsageError(message: "completions needs one shell: bash, zsh or fish")
        }
        switch shell {
        case "bash": print(bash)
        case "zsh": print(zsh)
        case "fish": print(fish)
        default: throw Arguments.UsageError(message: "no completions for '\(shell)'; expected bash, zsh or fish")
        }
        return 0
    }

    private static func words(_ command: CommandOptions) -> String {
        (command.options + command.flags + ["help"]).map { "--" + $0 }.joined(separator: " ")
    }

    static var bash: String {
        let cases = CommandOptions.all.map { "        \($0.name)) opts=\"\(words($0))\" ;;" }.joined(separator: "\n")
        let values = CommandOptions.choices.sorted { $0.key < $1.key }.map { "        --\($0.key)) COMPREPLY=($(compgen -W \"\($0.value.joined(separator: " "))\" -- \"$cur\")); return ;;" }.joined(separator: "\n")
        return """
        # bash completion for textreel (written by `textreel completions bash`)
        _textreel() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts
            if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(CommandOptions.all.map(\.name).joined(separator: " ")) --help --version" -- "$cur")); return
            fi
            case "$prev" in
        \(values)
            esac
            case "${COMP_WORDS[1]}" in
        \(cases)
                *) opts="" ;;
            esac
            if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
        }
        complete -o filenames -F _textreel textreel
        """
    }

    static var zsh: String {
        let commands = CommandOptions.all.map { "'\($0.name):\($0.summary)'" }.joined(separator: " ")
        let cases = CommandOptions.all.map { command in
            let specs = command.options.map { option in
                "'--\(option)=[\(option)]:value:" + (CommandOptions.choices[option].map { "(\($0.joined(separator: " ")))" } ?? "_files") + "'"
            } + command.flags.map { "'--\($0)[\($0)]'" }
            return "        \(command.name)) _arguments \((specs + ["'*:file:_files'"]).joined(separator: " ")) ;;"
        }.joined(separator: "\n")
        return """
        #compdef textreel
        # zsh completion for textreel (written by `textreel completions zsh`)
        _textreel() {
            if (( CURRENT == 2 )); then
                local -a commands=(\(commands))
                _describe 'command' commands; return
            fi
            shift words; (( CURRENT-- ))
            case "$words[1]" in
        \(cases)
            esac
        }
        _textreel "$@"
        """
    }

    static var fish: String {
        var lines = ["# fish completion for textreel (written by `textreel completions fish`)",
                     "complete -c textreel -f"]
        for command in CommandOptions.all {
            lines.append("complete -c textreel -n '__fish_use_subcommand' -a \(command.name) -d '\(command.summary)'")
            for option in command.options {
                let values = CommandOptions.choices[option].map { " -x -a '\($0.joined(separator: " "))'" } ?? " -r -F"
                lines.append("complete -c textreel -n '__fish_seen_subcommand_from \(command.name)' -l \(option)\(values)")
            }
            for flag in command.flags { lines.append("complete -c textreel -n '__fish_seen_subcommand_from \(command.name)' -l \(flag)") }
        }
        return lines.joined(separator: "\n")
    }
}
