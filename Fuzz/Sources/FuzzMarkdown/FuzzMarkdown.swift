import Foundation
import TextReel

/// Any bytes as a Markdown document: read, lay out and draw one frame. Errors are fine; crashes,
/// hangs and leaks are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard let document = try? TextDocument(markdownData: Data(bytes: data, count: size)) else { return 0 }
    let view = TextView(document: document, viewportSize: CGSize(width: 320, height: 240))
    _ = try? view.renderFrame()
    return 0
}
