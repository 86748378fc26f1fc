import Foundation
import TextReel

/// Mermaid diagrams, whole process: a first frame showing eight diagrams (one of each kind),
/// drawn for the first time (the browser started, each drawn by mermaid.js), the same render
/// again (each read back from the diagram cache, no browser), and the same diagrams below the
/// first frame (none drawn). The diagram cache is a folder of the benchmark's own.
enum DiagramBench {
    static let sources = [
        "flowchart TD\n  A[Start] --> B{Is it working?}\n  B -- Yes --> C[Ship it]\n  B -- No --> D[Debug]\n  D --> B",
        "sequenceDiagram\n  Alice->>John: Hello John, how are you?\n  John-->>Alice: Great!",
        "classDiagram\n  Animal <|-- Duck\n  Animal : +int age\n  Duck : +swim()",
        "stateDiagram-v2\n  [*] --> Still\n  Still --> Moving\n  Moving --> Crash\n  Crash --> [*]",
        "erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  ORDER ||--|{ LINE-ITEM : contains",
        "gantt\n  title A Gantt Diagram\n  dateFormat YYYY-MM-DD\n  section Section\n  A task :a1, 2024-01-01, 30d\n  Another task :after a1, 20d",
        "pie title Pets adopted by volunteers\n  \"Dogs\" : 386\n  \"Cats\" : 85\n  \"Rats\" : 15",
        "mindmap\n  root((mindmap))\n    Origins\n      Long history\n    Research\n    Tools",
    ]

    static func run(in folder: URL, textreel: String) throws -> [String: Double] {
        let cache = folder.appendingPathComponent("diagram-cache"), out = folder.appendingPathComponent("diagram-out")
        try? FileManager.default.removeItem(at: cache)
        setenv("TEXTREEL_FONT_CACHE", cache.path, 1)
        defer { unsetenv("TEXTREEL_FONT_CACHE") }
        func document(_ name: String, run: Int, below: Bool) throws -> URL {
            let blocks = sources.map { "```mermaid\n\($0)\n%% run \(run)\n```" }
            let text = (below ? (1...80).map { "Paragraph \($0) above the diagrams." } : []) + blocks
            let url = folder.appendingPathComponent("\(name).md")
            try Data(text.joined(separator: "\n\n").utf8).write(to: url)
            return url
        }
        /// A frame 6,000 tall shows all eight; the default 600 none of those below 80 paragraphs.
        func seconds(_ file: URL, height: Int = 6000) throws -> Double {
            try PeersBench.run([textreel, "render", file.path, "--quiet", "--width", "800", "--height", "\(height)", "--out", out.path]).seconds
        }
        _ = try seconds(try document("diagrams-fonts", run: -1, below: true), height: 600)   // the font cache, built once
        var cold: [Double] = [], again: [Double] = [], below: [Double] = []
        for run in 0..<3 {
            let file = try document("diagrams-\(run)", run: run, below: false)
            cold.append(try seconds(file))
            again.append(try seconds(file))
        }
        for run in 0..<3 { below.append(try seconds(try document("diagrams-below", run: 100 + run, below: true), height: 600)) }
        return ["cold": Measure.median(cold), "again": Measure.median(again), "below": Measure.median(below)]
    }

    /// The figures as the benchmark's table prints them (medians of 3).
    static func rows(_ d: [String: Double]) -> [(String, String)] {
        [("8 Mermaid diagrams in the first frame, drawn (whole process)", "\(f(d["cold"]!, 2)) s"),
         ("the same, drawn before (read from the cache)", "\(f(d["again"]! * 1000, 0)) ms"),
         ("the same 8 below the first frame (none drawn)", "\(f(d["below"]! * 1000, 0)) ms")]
    }
}
