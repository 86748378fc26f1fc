import Foundation
import TextReelGolden

/// Any bytes as a golden case's case.json5.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    try? GoldenCase.validate(caseData: Data(bytes: data, count: size))
    return 0
}
