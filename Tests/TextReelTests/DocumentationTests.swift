import XCTest

/// Every public and open symbol of the libraries has a `///` comment: the symbol graphs of this
/// test build, extracted by the toolchain (as `make docs` does), list none without one.
final class DocumentationTests: XCTestCase {
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) { try runTool(arguments) }

    func testEveryPublicSymbolIsDocumented() throws {
        // The modules of the build these tests run from (.build/<triple>/debug/Modules).
        let bundle = Bundle(for: Self.self).bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("Modules") }
        let modules = try XCTUnwrap(candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("TextReel.swiftmodule").path) },
                                    "no Modules folder beside \(bundle.path)")
        let info = try run(["swift", "-print-target-info"]).output
        let triple = try XCTUnwrap(info.range(of: #""triple": "([^"]+)""#, options: .regularExpression).map {
            String(info[$0]).split(separator: "\"")[2]
        })
        let includes = try run(["pkg-config", "--cflags-only-I", "pango", "cairo", "librsvg-2.0"]).output
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.hasPrefix("-I") }
            .flatMap { ["-Xcc", $0] }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-symbols-\(getpid())")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let sources = Paths.root.appendingPathComponent("Sources")
        var undocumented: [String] = []
        for module in ["TextReel", "TextReelMarkdown", "TextReelGolden", "TextReelTesting"] {
            let extract = try run(["swift", "symbolgraph-extract", "-module-name", module, "-target", String(triple),
                                   "-I", modules.path] + ["CPango", "CMark", "CImage", "CCompress"].flatMap { ["-I", sources.appendingPathComponent($0).path] }
                                  + ["CHTMLTree", "COptionalLibraries"].flatMap {   // their generated module maps
                                      ["-I", modules.deletingLastPathComponent().appendingPathComponent("\($0).build").path]
                                  }
                                  + includes + ["-minimum-access-level", "public", "-output-dir", out.path])
            XCTAssertEqual(extract.status, 0, extract.output)
            let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("\(module).symbols.json"))) as! [String: Any]
            for symbol in graph["symbols"] as! [[String: Any]] {
                guard ["public", "open"].contains(symbol["accessLevel"] as? String), symbol["docComment"] == nil,
                      let location = symbol["location"] as? [String: Any], let uri = location["uri"] as? String,
                      uri.contains("/Sources/") else { continue }
                let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
                undocumented.append("\(uri.components(separatedBy: "/Sources/").last!):\(line) \((symbol["pathComponents"] as! [String]).joined(separator: "."))")
            }
        }
        XCTAssertEqual(undocumented, [], "public symbols without a /// comment:\n" + undocumented.joined(separator: "\n"))
    }
}

/// ARCHITECTURE.md is the map: every folder under `Sources/` (and the library's rooms) is named
/// in its code map, and every folder the code map names exists.
final class ArchitectureMapTests: XCTestCase {
    func testTheMapNamesEveryFolderAndOnlyFolders() throws {
        let map = try String(contentsOf: Paths.root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        guard let start = map.range(of: "## Code map"), let end = map.range(of: "## Where to start") else { return XCTFail("no code map") }
        let code = map[start.upperBound..<end.lowerBound]
        // "  Name/   what it holds": the folders the map names, by their indentation.
        var named: [String] = []
        var parents: [(indent: Int, path: String)] = []
        for line in code.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            guard let slash = rest.firstIndex(of: "/"), rest[..<slash].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }),
                  !rest[..<slash].isEmpty else { continue }
            while let last = parents.last, last.indent >= indent { parents.removeLast() }
            let path = (parents.last.map { $0.path + "/" } ?? "") + rest[..<slash]
            named.append(path)
            parents.append((indent, path))
        }
        let fm = FileManager.default
        for path in named where path.hasPrefix("Sources") {
            var isDirectory: ObjCBool = false
            XCTAssertTrue(fm.fileExists(atPath: Paths.root.appendingPathComponent(path).path, isDirectory: &isDirectory) && isDirectory.boolValue, "the map names \(path), which does not exist")
        }
        for room in ["Sources", "Sources/TextReel", "Sources/TextReelMarkdown"] {
            for name in try fm.contentsOfDirectory(atPath: Paths.root.appendingPathComponent(room).path).sorted() {
                var isDirectory: ObjCBool = false
                guard fm.fileExists(atPath: Paths.root.appendingPathComponent(room + "/" + name).path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
                XCTAssertTrue(named.contains(room + "/" + name), "\(room)/\(name) is not in ARCHITECTURE.md's code map")
            }
        }
    }
}
