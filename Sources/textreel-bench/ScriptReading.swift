import Foundation
import TextReelMarkdown

/// Steps per second reading a script and planning its timeline, written on one line and one
/// step per line, at 10^3 … 10^5 alternating steps, and the time to report an error at the end
/// of the one-line script: each must be linear in the script's length.
enum ScriptReading {
    static func steps(_ count: Int) -> [String] {
        (0..<count).map { $0 % 2 == 0 ? "{wait: 0.001}" : "{scroll: {by: 10}}" }
    }

    static func measure() throws -> [String: Double] {
        var results: [String: Double] = [:]
        let view = TextView(document: try TextDocument(markdown: "# Script\n\nText."), viewportSize: CGSize(width: 400, height: 300))
        for count in [1_000, 10_000, 100_000] {
            let steps = steps(count)
            for (name, text) in [("oneLine", "{steps: [" + steps.joined(separator: ", ") + "]}"),
                                 ("multiLine", "{steps: [\n" + steps.joined(separator: ",\n") + "\n]}")] {
                let data = Data(text.utf8)
                let seconds = Measure.median(try (0..<3).map { _ in
                    try Measure.seconds { _ = try ScriptRunner(view: view, script: try ScrollScript(data: data), maximumFrames: 10 * count, maximumSteps: count) }
                })
                results["\(name)-\(count)"] = Double(count) / seconds
            }
            let broken = Data(("{steps: [" + steps.joined(separator: ", ") + ", {wait: }]}").utf8)
            results["errorMs-\(count)"] = 1000 * Measure.median((0..<3).map { _ in Measure.seconds { _ = try? ScrollScript(data: broken) } })
        }
        return results
    }
}
