import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// The pinned fonts come from the packages `make setup` installs and the `.deb` depends on, and
/// nothing else: a fresh Debian machine renders.
final class FontPackagesTests: XCTestCase {
    private var declared: [String] {
        get throws {
            let makefile = try String(contentsOf: Paths.root.appendingPathComponent("Makefile"), encoding: .utf8)
            let line = try XCTUnwrap(makefile.split(separator: "\n").first { $0.hasPrefix("FONT_PACKAGES :=") })
            return line.dropFirst("FONT_PACKAGES :=".count).split(separator: " ").map(String.init)
        }
    }

    private func shell(_ script: String) throws -> (status: Int32, output: String) { try runTool(["sh", "-c", script]) }

    func testTheMakefileInstallsAndTheDebDependsOnEveryFontPackage() throws {
        let packages = try declared
        XCTAssertEqual(Set(packages), Set(FontSet.standardPackages.map(\.package)))
        let makefile = try String(contentsOf: Paths.root.appendingPathComponent("Makefile"), encoding: .utf8)
        XCTAssertTrue(makefile.contains("$(FONT_PACKAGES) pango1.0-tools"), "setup's PACKAGES names the font packages")
        XCTAssertTrue(makefile.contains("$(subst $(space),$(comma)$(space),$(FONT_PACKAGES))"), "the .deb depends on them")
        XCTAssertTrue(makefile.contains("\"$(DEB_DEPENDS)\""), "the .deb's control file takes DEB_DEPENDS")
        // What make expands, not only what the file says: the packages setup installs and the
        // .deb's dependencies.
        let dry = try shell("cd '\(Paths.root.path)' && make -n -p setup 2>/dev/null | grep -E '^(PACKAGES|DEB_DEPENDS) :='")
        let lines = dry.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, dry.output)
        for line in lines { for package in packages { XCTAssertTrue(line.contains(package), "\(package) missing from: \(line)") } }
    }

    func testEveryPinnedFileBelongsToItsDeclaredPackage() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query"), "not a Debian system")
        for (package, files) in FontSet.standardPackages {
            let owned = try shell("dpkg-query -L \(package)")
            XCTAssertEqual(owned.status, 0, "\(package) is not installed: run make setup")
            let list = Set(owned.output.split(separator: "\n").map(String.init))
            for file in files { XCTAssertTrue(list.contains(file), "\(file) is not installed by \(package)") }
        }
    }

    /// A font cache whose link was re-pointed at another font is found out and built again: the
    /// pixels are the pinned fonts', never the tampered link's.
    func testATamperedFontCacheIsRebuilt() throws {
        let folder = Paths.temporaryFolder()
        let environment = ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
        func render(_ name: String) throws -> Data {
            let out = folder.appendingPathComponent(name)
            let result = try CLI.run(["render", "Fixtures/documents/demo.md", "--out", out.path, "--quiet"], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            return try Data(contentsOf: out.appendingPathComponent("frame-00001.png"))
        }
        let clean = try render("clean")
        let fonts = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.appendingPathComponent("cache").path)?
            .compactMap { $0 as? String }.first { $0.hasSuffix("/fonts") && $0.contains("fonts2-") })
        let links = folder.appendingPathComponent("cache").appendingPathComponent(fonts)
        let first = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: links.path).sorted().first)
        XCTAssertTrue(first.hasSuffix("NotoSans-Regular.ttf"), first)
        try FileManager.default.removeItem(at: links.appendingPathComponent(first))
        try FileManager.default.createSymbolicLink(atPath: links.appendingPathComponent(first).path,
                                                   withDestinationPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
        XCTAssertEqual(try render("tampered"), clean)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: links.appendingPathComponent(first).path),
                       FontSet.standard.files[0], "the link points at its pinned file again")
    }

    /// A render in a mount namespace where /usr/share/fonts holds only the declared packages'
    /// files: it succeeds; without fonts-dejavu-extra it fails and names the package to install.
    func testARenderSeesOnlyTheDeclaredPackagesFonts() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query"), "not a Debian system")
        try XCTSkipUnless(try shell("unshare -m --propagation private true").status == 0, "no mount namespaces here")
        let packages = try declared
        func render(with visible: [String]) throws -> (status: Int32, output: String) {
            let folder = Paths.temporaryFolder("fontsandbox\(visible.count)")
            let list = folder.appendingPathComponent("files")
            let files = try shell("dpkg-query -L \(visible.joined(separator: " ")) | grep '^/usr/share/fonts/.*\\.tt[fc]$'")
            try Data(files.output.utf8).write(to: list)
            // The real folder is kept reachable under `original`; the visible one is a tmpfs of links.
            let script = """
            set -e
            mkdir -p '\(folder.path)/original' '\(folder.path)/cache'
            mount --bind /usr/share/fonts '\(folder.path)/original'
            mount -t tmpfs none /usr/share/fonts
            while read -r f; do
              mkdir -p "$(dirname "$f")"
              ln -s '\(folder.path)/original'"${f#/usr/share/fonts}" "$f"
            done < '\(list.path)'
            XDG_CACHE_HOME='\(folder.path)/cache' '\(CLI.executable.path)' render '\(Paths.fixtures.path)/documents/emoji.md' \
              --at 0 --out '\(folder.path)/out' --quiet
            """
            let file = folder.appendingPathComponent("sandbox.sh")
            try Data(script.utf8).write(to: file)
            return try shell("unshare -m --propagation private sh '\(file.path)'")
        }
        let complete = try render(with: packages)
        XCTAssertEqual(complete.status, 0, complete.output)
        let partial = try render(with: packages.filter { $0 != "fonts-dejavu-extra" })
        XCTAssertNotEqual(partial.status, 0)
        XCTAssertTrue(partial.output.contains("fonts-dejavu-extra"), partial.output)
    }
}
