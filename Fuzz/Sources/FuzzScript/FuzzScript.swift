import Foundation
import TextReelMarkdown

/// Any bytes as a scroll script: read it; every step, written back as JSON5, reads back as the
/// same step (the explorer writes its shrunk scripts that way); and run what reads on a small
/// document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard let script = try? ScrollScript(data: Data(bytes: data, count: size)),
          let document = try? TextDocument(markdown: "# One\n\nTwo ![](video:v?size=40x20)\n\n- three") else { return 0 }
    let written = script.steps.map(\.json5)
    do {
        let reread = try ScrollScript(data: Data("{steps: [\(written.joined(separator: ",\n"))]}".utf8)).steps.map(\.json5)
        if reread != written { fatalError("steps read back differently:\n\(written)\n\(reread)") }
    } catch {
        fatalError("steps written back do not read: \(error)\n\(written.joined(separator: "\n"))")
    }
    let view = TextView(document: document, viewportSize: CGSize(width: 200, height: 120))
    guard let runner = try? ScriptRunner(view: view, script: script, maximumFrames: 200) else { return 0 }
    _ = try? runner.run(drawing: 0...0) { _, _, _ in }
    return 0
}
