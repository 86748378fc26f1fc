import Foundation
import TextReel

/// Any bytes as a Markdown document: read whole and in sections of one byte up (which must give
/// the same paragraphs and warnings, or the same error), then lay out and draw one frame. Errors
/// are fine; crashes, hangs, leaks and a difference between the two reads are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let whole = Result { try TextDocument(markdownData: bytes, sectionBytes: 0) }
    let sections = Result { try TextDocument(markdownData: bytes, sectionBytes: 1) }
    switch (whole, sections) {
    case (.success(let a), .success(let b)):
        if !a.paragraphs.elementsEqual(b.paragraphs) || a.warnings.count != b.warnings.count {
            fatalError("a document read in sections differs from one read whole")
        }
    case (.failure(let a), .failure(let b)):
        if type(of: a) != type(of: b) { fatalError("reading whole and in sections fail differently: \(a) / \(b)") }
    default:
        fatalError("reading whole and in sections disagree: \(whole) / \(sections)")
    }
    guard case .success(let document) = sections else { return 0 }
    let view = TextView(document: document, viewportSize: CGSize(width: 320, height: 240))
    _ = try? view.renderFrame()
    return 0
}
