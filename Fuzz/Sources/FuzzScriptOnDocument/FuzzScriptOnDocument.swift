import Foundation
import TextReelMarkdown

/// A document and a script from the same bytes (split at the first NUL byte: Markdown before,
/// JSON5 after), run frame by frame, drawing every frame: any crash, and any frame that breaks
/// an invariant (a gap, an overlap, disorder, an uncovered viewport), is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    var limits = ReadingLimits()
    limits.documentBytes = 64 << 10
    limits.paragraphBytes = 16 << 10
    guard let document = try? TextDocument(markdownData: bytes[..<split], limits: limits),
          let script = try? ScrollScript(data: split < bytes.endIndex ? bytes[(split + 1)...] : Data("{}".utf8)) else { return 0 }
    let view = TextView(document: document, viewportSize: CGSize(width: 240, height: 160))
    guard let runner = try? ScriptRunner(view: view, script: script, maximumFrames: 40, maximumSteps: 40) else { return 0 }
    _ = try? runner.run { number, _, event in
        if let broken = event.checks.errors.first { fatalError("frame \(number) breaks an invariant: \(broken)") }
    }
    return 0
}
