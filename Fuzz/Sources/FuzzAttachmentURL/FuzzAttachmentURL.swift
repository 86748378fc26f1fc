import Foundation
import TextReelMarkdown

/// Any bytes as an attachment URL inside an image link.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let url = String(decoding: Data(bytes: data, count: size), as: UTF8.self)
    guard let document = try? TextDocument(markdown: "Text ![alt](\(url)) more.\n\n![](\(url))", baseURL: URL(fileURLWithPath: "/nonexistent")) else { return 0 }
    _ = try? TextView(document: document, viewportSize: CGSize(width: 200, height: 120)).renderFrame()
    return 0
}
