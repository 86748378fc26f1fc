// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TextReel",
    products: [
        .library(name: "TextReel", targets: ["TextReel"]),
        .library(name: "TextReelMarkdown", targets: ["TextReelMarkdown"]),
        .library(name: "TextReelGolden", targets: ["TextReelGolden"]),
        /// For test targets only: `assertGoldenFrames` (XCTest and Swift Testing).
        .library(name: "TextReelTesting", targets: ["TextReelTesting"]),
        .executable(name: "textreel", targets: ["textreel"]),
    ],
    targets: [
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo",
                       providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        .systemLibrary(name: "CImage", pkgConfig: "gdk-pixbuf-2.0",
                       providers: [.apt(["librsvg2-dev", "libgdk-pixbuf-2.0-dev", "libpng-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .systemLibrary(name: "CMark", pkgConfig: "libcmark-gfm",
                       providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(name: "CHTTP", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CCompress", pkgConfig: "libisal",
                       providers: [.apt(["libisal-dev", "libdeflate-dev", "zlib1g-dev"])]),
        .target(name: "COptionalLibraries", linkerSettings: [.linkedLibrary("dl")]),
        /// Gumbo's HTML5 parser behind a plain-C walk.
        .target(name: "CHTMLTree", linkerSettings: [.linkedLibrary("gumbo")]),
        /// The engine: documents as paragraphs, layout, the viewport, attachments, drawing, scripts.
        .target(name: "TextReel", dependencies: ["CPango", "CImage", "CCompress", "COptionalLibraries"]),
        /// The reader: Markdown (cmark-gfm), raw HTML (Gumbo), math, emoji and highlighting
        /// (the Python helper) into the engine's paragraphs.
        .target(name: "TextReelMarkdown", dependencies: ["TextReel", "CMark", "CHTMLTree"],
                resources: [.embedInCode("Diagram/MermaidBrowser.py"), .embedInCode("Helper/Highlight.py"),
                            .embedInCode("Math/MathIdioms.py"), .embedInCode("Math/MathLayout.py"),
                            .embedInCode("Helper/PythonHelper.py")]),
        .target(name: "TextReelGolden", dependencies: ["TextReel", "TextReelMarkdown", "CPango"]),
        /// The explorer: random scripts from a seed, each step kind's generator, weight and
        /// simplifications (the engine's step types carry none of it).
        .target(name: "TextReelExplorer", dependencies: ["TextReel"]),
        .target(name: "TextReelTesting", dependencies: ["TextReel", "TextReelMarkdown", "TextReelGolden"]),
        .executableTarget(name: "textreel", dependencies: ["TextReel", "TextReelMarkdown", "TextReelGolden", "TextReelExplorer", "CChafa", "CHTTP", "CWebP",
                                                          "COptionalLibraries"]),
        .executableTarget(name: "textreel-bench", dependencies: ["TextReel", "TextReelMarkdown", "TextReelGolden", "CMark"]),
        /// The engine's own tests: no reader among their dependencies.
        .testTarget(name: "TextReelEngineTests", dependencies: ["TextReel"]),
        .testTarget(name: "TextReelTests", dependencies: ["TextReel", "TextReelMarkdown", "TextReelExplorer", "CPango", "textreel"]),
        .testTarget(name: "TextReelGoldenTests", dependencies: ["TextReelGolden", "TextReel", "TextReelMarkdown", "TextReelTesting", "TextReelExplorer"],
                    exclude: ["__Goldens__", "Bubbles/__Goldens__", "LineNumbers/__Goldens__", "STTextView/__Goldens__"]),
    ]
)
