// swift-tools-version:6.0
// Fuzz targets for TextReel's readers, built with libFuzzer (`make fuzz`, and a short smoke run in
// `make test`). A package of its own, so that the main package never builds them without
// `-sanitize=fuzzer`.
import PackageDescription

let targets = ["FuzzMarkdown", "FuzzScript", "FuzzScriptOnDocument", "FuzzAttachmentURL", "FuzzGoldenCase", "FuzzPNG"]

let package = Package(
    name: "TextReelFuzz",
    products: targets.map { .executable(name: $0, targets: [$0]) },
    dependencies: [.package(name: "TextReel", path: "..")],
    targets: targets.map {
        .executableTarget(name: $0, dependencies: [.product(name: "TextReel", package: "TextReel"),
                                                   .product(name: "TextReelMarkdown", package: "TextReel"),
                                                   .product(name: "TextReelGolden", package: "TextReel")])
    }
)
