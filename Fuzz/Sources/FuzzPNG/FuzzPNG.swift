import Foundation
import TextReelGolden

/// Any bytes as a PNG for the image diff; a decoded image is also compared with a changed copy
/// of itself both ways the diff image is made (whole, and encoded while it is made), which must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard let image = try? RGBAImage(pngData: Data(bytes: data, count: size)) else { return 0 }
    _ = ImageDiff.compare(image, image)
    var changed = image
    for i in stride(from: 0, to: changed.pixels.count, by: 12) { changed.pixels[i] ^= 0x5A }
    let whole = ImageDiff.compare(image, changed)
    guard let (encoded, png) = try? ImageDiff.compareEncodingDiffImage(image, changed) else { fatalError("the diff image could not be encoded") }
    guard encoded.mismatch == whole.mismatch, encoded.regions == whole.regions,
          (try? RGBAImage(pngData: png))?.pixels == whole.image?.pixels else {
        fatalError("the diff image encoded while made differs from the whole one")
    }
    return 0
}
