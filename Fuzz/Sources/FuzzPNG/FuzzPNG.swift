import Foundation
import TextReelGolden

/// Any bytes as a PNG for the image diff.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard let image = try? RGBAImage(pngData: Data(bytes: data, count: size)) else { return 0 }
    _ = ImageDiff.compare(image, image)
    return 0
}
