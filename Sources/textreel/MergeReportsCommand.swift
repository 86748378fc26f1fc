import Foundation
import TextReelMarkdown
import TextReelGolden

/// `textreel merge-reports`: the reports of one run, from the blobs of its shards.
enum MergeReportsCommand {
    static let help = """
    Usage: textreel merge-reports <blob>… [--report DIR] [--junit FILE] [--json FILE]

    Merges the blobs that `textreel test --shard I/N --blob FILE` wrote on several machines into
    the reports one run over every case would write: the same cases in the same order, the same
    messages and image paths. Exit status: 0 when every case passed, 1 when a case failed or
    a shard of the split has no blob (its cases were never seen), 2 on bad input.

    Example (after three CI jobs ran their shards):
      textreel merge-reports blob-1.json blob-2.json blob-3.json --report Output/report --junit junit.xml
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .mergeReports)
        if args.flags.contains("help") { print(help); return 0 }
        guard !args.positional.isEmpty else { throw Arguments.UsageError(message: "merge-reports needs at least one blob") }
        let merged = try Reports.merge(blobs: args.positional.map { URL(fileURLWithPath: $0) })
        let results = merged.results
        if let folder = args.values["report"] { try Reports.writeHTML(results, scope: merged.scope, to: URL(fileURLWithPath: folder)) }
        if let file = args.values["junit"] { try Reports.writeJUnit(results, to: URL(fileURLWithPath: file)) }
        if let file = args.values["json"] { try Reports.writeJSON(results, to: URL(fileURLWithPath: file)) }
        let failed = results.filter(\.isFailure).count
        // A shard that never uploaded its blob ran cases nobody saw: the merged verdict fails.
        if !merged.missing.isEmpty {
            Terminal.error("textreel: no blob for shard\(merged.missing.count == 1 ? "" : "s") \(merged.missing.joined(separator: ", ")): its cases were not seen, so the merged run fails (the reports cover the others only)")
            print("\(results.count - failed) passed, \(failed) failed, shard\(merged.missing.count == 1 ? "" : "s") \(merged.missing.joined(separator: ", ")) missing (merged from \(args.positional.count) blob\(args.positional.count == 1 ? "" : "s"))")
            return 1
        }
        print("\(results.count - failed) passed, \(failed) failed (merged from \(args.positional.count) blob\(args.positional.count == 1 ? "" : "s"))")
        return failed == 0 ? 0 : 1
    }
}
