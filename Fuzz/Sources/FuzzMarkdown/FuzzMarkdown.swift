import Foundation
import TextReelMarkdown

/// Any bytes as a Markdown document: read whole and in sections of one byte up (which must give
/// the same paragraphs and warnings, or the same error), then lay out and draw one frame. Errors
/// are fine; crashes, hangs, leaks and a difference between the two reads are not.
/// Diagrams are left as read (drawn as their source): the fuzzer reads and lays them out, and
/// leaves mermaid.js to its own fuzzing (a diagram costs a browser 20 to 100 ms).
let kinds: AttachmentKinds = {
    var kinds = AttachmentKinds.standard
    kinds.kinds["diagram"]?.prepare = { $0 }
    return kinds
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let whole = Result { try TextDocument(markdownData: bytes, attachments: kinds, sectionBytes: 0) }
    let sections = Result { try TextDocument(markdownData: bytes, attachments: kinds, sectionBytes: 1) }
    // cmark-gfm's table extension gives some blocks near a table other lines (or none) in a whole
    // parse, so messages are compared without their place.
    func unplaced(_ message: String) -> String {
        message.replacingOccurrences(of: #"^<markdown>(:\d+)*:"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"first (at [\d:]+|earlier)"#, with: "first", options: .regularExpression)
    }
    switch (whole, sections) {
    case (.success(let a), .success(let b)):
        if !a.paragraphs.elementsEqual(b.paragraphs) || a.warnings.map(unplaced) != b.warnings.map(unplaced) {
            // Say how, so a shrunk input explains itself.
            let (left, right) = (Array(a.paragraphs), Array(b.paragraphs))
            let k = zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            fatalError("a document read in sections differs from one read whole: "
                + (k.map { "paragraph \($0): \(left[$0]) / \(right[$0])" }
                   ?? "\(left.count) / \(right.count) paragraphs; warnings \(a.warnings) / \(b.warnings)"))
        }
        let fresh = try! TextDocument(markdownData: bytes, attachments: kinds, sectionBytes: 1)
        for (index, paragraph) in a.paragraphs.enumerated() {
            if case .heading = paragraph.kind, fresh.index(ofHeading: paragraph.text) != a.index(ofHeading: paragraph.text) {
                fatalError("heading search differs for paragraph \(index)")
            }
        }
    case (.failure(let a), .failure(let b)):
        if unplaced("\(a)") != unplaced("\(b)") { fatalError("reading whole and in sections fail differently: \(a) / \(b)") }
    default:
        fatalError("reading whole and in sections disagree: \(whole) / \(sections)")
    }
    guard case .success(let document) = sections else { return 0 }
    let view = TextView(document: document, viewportSize: CGSize(width: 320, height: 240))
    _ = try? view.renderFrame()
    return 0
}
