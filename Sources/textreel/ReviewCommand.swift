import Foundation
import TextReelMarkdown
import TextReelGolden

/// `textreel review`: walks the failing frames of a suite (or of a saved report) in the terminal,
/// expected | actual | diff side by side, and accepts what the user says is right.
enum ReviewCommand {
    static let help = """
    Usage: textreel review <suite folder | report folder>…

    Shows each failing frame of the golden cases — the structural message and the differing
    regions above expected, actual and diff images side by side (drawn with libchafa) — and
    accepts changes one frame or one case at a time. A suite folder is run first (goldens are
    not written; actual/ and diff/ images are, as by textreel test); a report folder (from
    `textreel test --report DIR`) is read as it is.

    Keys:  a  accept this frame (its golden becomes the actual image)
           c  accept the case (re-render it and record all its goldens)
           s, →, space  skip to the next frame      b, ←  go back      q  quit
    Goldens are written the atomic way --update writes them. Exit status 0; 2 on bad input.

    Example:
      textreel review Fixtures/golden
    """

    /// One failing frame (or a failing case with no frame images, `diff` nil).
    struct Item {
        var result: CaseResult
        var diff: FrameDiff?
    }

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .review)
        if args.flags.contains("help") { print(help); return 0 }
        guard !args.positional.isEmpty else { throw Arguments.UsageError(message: "review needs a suite or report folder") }
        guard isatty(0) == 1, isatty(1) == 1 else { throw TextReelError("review needs a terminal; run it in one (or use textreel test --report)") }
        let (results, scope) = try load(args.positional.map { URL(fileURLWithPath: $0) })
        let items = results.filter(\.isFailure).flatMap { result in
            result.diffs.contains { $0.actual != nil } ? result.diffs.filter { $0.actual != nil }.map { Item(result: result, diff: $0) }
                                                      : [Item(result: result, diff: nil)]
        }
        guard !items.isEmpty else { print("nothing to review: every case passed"); return 0 }
        var session = Session(items: items, scope: scope)
        RawTerminal.enter()
        do { try session.loop() } catch { RawTerminal.leave(); throw error }
        RawTerminal.leave()
        print(session.log.isEmpty ? "nothing accepted" : session.log.joined(separator: "\n"))
        return 0
    }

    /// Results from a report folder's results.json (accepting into the suites it names), or
    /// from running the suites (writing nothing; accepting into them).
    static func load(_ folders: [URL]) throws -> (results: [CaseResult], scope: GoldenWriteScope) {
        if folders.count == 1, FileManager.default.fileExists(atPath: folders[0].appendingPathComponent("results.json").path) {
            let merged = try Reports.merge(blobs: [folders[0].appendingPathComponent("results.json")])
            return (merged.results, merged.scope)
        }
        let scope = GoldenWriteScope(suites: folders.map(\.path))
        // Goldens of Swift tests: what their last `swift test` run left.
        if (try? GoldenSuite.cases(in: folders)) == nil, case let swift = SwiftGoldens.results(in: folders), !swift.isEmpty {
            return (swift, scope)
        }
        var options = GoldenSuite.Options()
        options.update = .never
        Terminal.error("running the suite to find what fails …")
        return (try GoldenSuite.run(GoldenSuite.cases(in: folders), options: options), scope)
    }

    struct Session {
        var items: [Item]
        let scope: GoldenWriteScope
        var position = 0
        var log: [String] = []
        var message: String?
        /// Cases accepted whole: their remaining frames are done.
        var acceptedCases = Set<String>()

        mutating func loop() throws {
            draw()
            while true {
                guard let keys = RawTerminal.readKeys(timeout: 250) else {
                    if RawTerminal.takeResize() { draw() }
                    continue
                }
                for key in keys {
                    switch key {
                    case [0x71], [0x03]: return                                        // q, Ctrl-C
                    case [0x61]: accept(frame: items[position])                        // a
                    case [0x63]: try accept(case: items[position])                     // c
                    case [0x73], [0x20], [0x1B, 0x5B, 0x43], [0x6E]: move(1)           // s, space, →, n
                    case [0x62], [0x1B, 0x5B, 0x44], [0x70]: move(-1)                  // b, ←, p
                    default: break
                    }
                }
                draw()
            }
        }

        mutating func move(_ step: Int) {
            position = min(max(position + step, 0), items.count - 1)
            message = nil
        }

        /// The actual image becomes this frame's golden: a file of its own (the old one may be
        /// shared by identical frames), and the index rewritten, each written atomically.
        mutating func accept(frame item: Item) {
            guard let diff = item.diff, diff.actual != nil else {
                message = "this case has no frame to accept; press c to accept the case"
                return
            }
            do {
                try GoldenEdit.accept(frame: diff, of: item.result, scope: scope)
                log.append("accepted frame \(diff.frame) of \(item.result.name)")
                move(1)
                message = "accepted frame \(diff.frame)" + (item.result.structure.isEmpty ? "" : " (its structure changed too: press c to record the case's layout)")
            } catch {
                message = "could not accept: \(error)"
            }
        }

        mutating func accept(case item: Item) throws {
            do {
                try GoldenEdit.accept(case: item.result, scope: scope)
                log.append("accepted case \(item.result.name)")
                acceptedCases.insert(item.result.name)
                message = "recorded every golden of \(item.result.name)"
                if let next = items.indices.first(where: { $0 > position && !acceptedCases.contains(items[$0].result.name) }) { position = next }
            } catch {
                message = "could not accept: \(error)"
            }
        }

        func draw() {
            let size = TerminalSize.current
            let item = items[position]
            var screen = "\u{1B}[H\u{1B}[2J"
            func line(_ row: Int, _ text: String, bold: Bool = false) {
                screen += "\u{1B}[\(row);1H" + (bold ? "\u{1B}[1m" : "") + PreviewTable.pad(text, size.columns) + "\u{1B}[0m"
            }
            let done = acceptedCases.contains(item.result.name) ? " — accepted" : ""
            line(1, "\(position + 1)/\(items.count)  \(item.result.name) (\(item.result.status.rawValue))\(done)", bold: true)
            var row = 2
            if let diff = item.diff {
                line(row, "frame \(diff.frame): \(diff.reason)"); row += 1
                for region in diff.regions.prefix(2) { line(row, "  at \(region.x),\(region.y) \(region.width)×\(region.height): \(region.what)"); row += 1 }
            }
            for message in item.result.structure.prefix(2) { line(row, message); row += 1 }
            let imageRow = row + 1
            let panes = [("expected", item.diff?.expected), ("actual", item.diff?.actual), ("diff", item.diff?.diff)]
            let width = max((size.columns - 2) / 3, 10), height = max(size.rows - imageRow - 2, 4)
            for (k, (label, path)) in panes.enumerated() {
                let x = 1 + k * (width + 1)
                screen += "\u{1B}[\(imageRow);\(x)H\u{1B}[4m\(label)\u{1B}[0m"
                guard let path, let image = try? RGBAImage(contentsOf: URL(fileURLWithPath: path)) else {
                    screen += "\u{1B}[\(imageRow + 1);\(x)H(none)"
                    continue
                }
                let art = TerminalImage.render(rgba: image.pixels, width: image.width, height: image.height,
                                               columns: width, rows: height, mode: .symbols)
                for (r, text) in art.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where r < height {
                    screen += "\u{1B}[\(imageRow + 1 + r);\(x)H" + text + "\u{1B}[0m"
                }
            }
            let keys = message ?? "a accept frame · c accept case · s/→ next · b/← back · q quit"
            screen += "\u{1B}[\(size.rows);1H\u{1B}[7m" + PreviewTable.pad(keys, size.columns) + "\u{1B}[0m"
            RawTerminal.write(screen)
        }
    }
}
