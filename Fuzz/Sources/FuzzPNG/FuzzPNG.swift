import Foundation
import TextReelGolden

/// Any bytes as a PNG for the image diff; a decoded image is also compared with a changed copy
/// of itself both ways the diff image is made (whole, and encoded while it is made), which must
/// agree, and so must the comparison of the files decoded a band at a time as they are compared.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let file = Data(bytes: data, count: size)
    guard let image = try? RGBAImage(pngData: file) else {
        // What the whole decoder refuses is never compared band by band either.
        if (try? ImageDiff.compare(png: file, file, diffImage: true)) ?? nil != nil { fatalError("a PNG refused whole was compared in bands") }
        return 0
    }
    _ = ImageDiff.compare(image, image)
    var changed = image
    for i in stride(from: 0, to: changed.pixels.count, by: 12) { changed.pixels[i] ^= 0x5A }
    let whole = ImageDiff.compare(image, changed)
    guard let (encoded, png) = try? ImageDiff.compareEncodingDiffImage(image, changed) else { fatalError("the diff image could not be encoded") }
    guard encoded.mismatch == whole.mismatch, encoded.regions == whole.regions,
          (try? RGBAImage(pngData: png))?.pixels == whole.image?.pixels else {
        fatalError("the diff image encoded while made differs from the whole one")
    }
    // The input file against its changed copy, each decoded as it is compared (when it is of that kind).
    guard let changedFile = try? changed.pngData() else { fatalError("the changed copy could not be encoded") }
    if let streamed = try? ImageDiff.compare(png: file, changedFile, diffImage: true) {
        guard streamed.result.mismatch == whole.mismatch, streamed.result.regions == whole.regions, streamed.png == png else {
            fatalError("the comparison decoded band by band differs from the whole one")
        }
    }
    return 0
}
