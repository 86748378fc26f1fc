import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Formulas as public Markdown writes them for GitHub's MathJax (`Fixtures/formulas/corpus.jsonl`:
/// four sets of geometry-processing lecture notes and GitHub's own documentation of math, 452
/// distinct formulas), typeset one by one: how many are, and what stops the rest, by the command
/// or reason named (`make formulas` prints the report).
final class FormulaCorpusTests: XCTestCase {
    struct Formula: Decodable { var from: String, display: Bool, tex: String }

    /// The share that must stay typeset: what the corpus measured when the report was made (96.9%).
    static let typesetAtLeast = 0.96

    func testTheFormulaCorpusIsTypeset() throws {
        let lines = try String(contentsOf: Paths.root.appendingPathComponent("Fixtures/formulas/corpus.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        let formulas = try lines.map { try JSONDecoder().decode(Formula.self, from: Data($0.utf8)) }
        XCTAssertGreaterThan(formulas.count, 400)
        var failures: [(Formula, String)] = []
        for formula in formulas {
            if case .failure(let problem) = MathTypesetter.typeset(formula.tex, size: 16, display: formula.display) {
                failures.append((formula, problem.reason))
            }
        }
        let typeset = formulas.count - failures.count
        var report = ["\(typeset) of \(formulas.count) formulas typeset (\(NumberText.text(100 * Double(typeset) / Double(formulas.count), decimals: 1))%)"]
        let byReason = Dictionary(grouping: failures, by: \.1).sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
        for (reason, group) in byReason {
            report.append("  \(group.count) × \(reason)")
            for (formula, _) in group.prefix(3) { report.append("      \(formula.display ? "$$" : "$")\(formula.tex.prefix(90).split(whereSeparator: \.isNewline).joined(separator: " "))\(formula.display ? "$$" : "$")  (\(formula.from))") }
        }
        print(report.joined(separator: "\n"))
        try? report.joined(separator: "\n").appending("\n").write(to: Paths.root.appendingPathComponent("Output/formulas.txt"), atomically: true, encoding: .utf8)
        XCTAssertGreaterThanOrEqual(Double(typeset) / Double(formulas.count), Self.typesetAtLeast, report.joined(separator: "\n"))
    }
}
