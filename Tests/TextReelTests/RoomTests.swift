import Foundation
import XCTest

/// The map's one-way flow, checked in the sources: a room of the engine names no type declared
/// in a later room, except where TextKit's own shape or the scene puts one there (each listed
/// with why); the engine names nothing of the reading module; Rendering never reads the layout
/// manager. A new reach back fails here with the file that makes it.
final class RoomTests: XCTestCase {
    /// The engine's rooms in the order data flows through them.
    static let order = ["Support", "Document", "Typesetting", "Layout", "Selection", "Viewport", "Attachments", "Rendering", "Script", "TextView"]

    /// "Room → Type": where a room names a later room's type by design.
    static let allowed: [String: String] = [
        "Typesetting → RenderingAttributeStore": "a shaped layout is drawn with the layout manager's display-only attributes",
        "Typesetting → GraphicsContext": "TextKit's line fragment draws itself (`draw(at:in:)`)",
        "Typesetting → PNGWriter": "the environment's fingerprint names the PNG encoder",
        "Layout → TextSelection": "TextKit's layout manager holds the selections",
        "Layout → TextSelectionNavigation": "TextKit's layout manager holds the selection navigation",
        "Layout → TextViewportLayoutController": "TextKit's layout manager holds its viewport controller",
        "Layout → GraphicsContext": "TextKit's layout fragment draws itself (`draw(at:in:)`)",
        "Attachments → GraphicsContext": "an attachment view draws itself",
        "Attachments → ImageFile": "the image kind inspects its file when the document is read",
        "Rendering → LayoutPass": "the scene drawn is the pass's value",
        "Rendering → Layer": "the scene holds the view's layers",
        "Rendering → View": "the scene holds the content view's subviews",
        "Rendering → RulerView": "the scene holds the ruler beside the text",
        "Script → TextView": "a script drives the view",
        "Script → ViewportLimits": "a script's viewport is held to the view's limits",
        "Script → LayoutPass": "a frame's event is its pass",
        "Script → PassChecks": "a frame's event holds its checks",
    ]

    private let engine = Paths.root.appendingPathComponent("Sources/TextReel")

    /// Every Swift file of `room`, with its text less comments and string literals.
    private func files(in room: String) throws -> [(name: String, code: String)] {
        let folder = engine.appendingPathComponent(room)
        guard let walk = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return try walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let code = text.replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #""(?:[^"\\\n]|\\.)*""#, with: "\"\"", options: .regularExpression)
            return (name, code)
        }
    }

    private func words(_ code: String) -> Set<String> {
        Set(code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init).filter { $0.first?.isUppercase == true })
    }

    func testNoRoomNamesALaterRoomsTypeUnlessListed() throws {
        let declaration = try NSRegularExpression(pattern: #"^(?:(?:public|package|open|final|indirect|@\w+)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+(\w+)"#,
                                                  options: .anchorsMatchLines)
        var home: [String: String] = [:]
        for room in Self.order {
            for file in try files(in: room) {
                let range = NSRange(file.code.startIndex..., in: file.code)
                for match in declaration.matches(in: file.code, range: range) {
                    let name = String(file.code[Range(match.range(at: 1), in: file.code)!])
                    if home[name] == nil { home[name] = room }
                }
            }
        }
        XCTAssertEqual(home["TextLayoutManager"], "Layout", "the scan finds the rooms' types")
        var found: Set<String> = [], problems: [String] = []
        for (rank, room) in Self.order.enumerated() {
            for file in try files(in: room) {
                for word in words(file.code).sorted() {
                    guard let other = home[word], let otherRank = Self.order.firstIndex(of: other), otherRank > rank else { continue }
                    let edge = "\(room) → \(word)"
                    found.insert(edge)
                    if Self.allowed[edge] == nil { problems.append("\(room)/\(file.name) names \(other)'s \(word)") }
                }
            }
        }
        XCTAssertEqual(problems, [], "a room reaches a later one; pass what it needs in, or list the edge with why")
        XCTAssertEqual(Set(Self.allowed.keys).subtracting(found), [], "listed edges no longer used: drop them")
    }

    /// Drawing reads the scene: a fragment's surface generation and rendering attributes come
    /// with it, not through the fragment's layout manager.
    func testRenderingNeverReadsTheLayoutManager() throws {
        for file in try files(in: "Rendering") {
            XCTAssertFalse(words(file.code).contains("TextLayoutManager"), "Rendering/\(file.name) reads the layout manager")
            XCTAssertNil(file.code.range(of: ".textLayoutManager"), "Rendering/\(file.name) reads a fragment's layout manager")
        }
    }

    /// The engine compiles without the reader: no file imports it or the libraries only it uses.
    func testTheEngineNamesNothingOfTheReadingModule() throws {
        for room in Self.order {
            for file in try files(in: room) {
                for library in ["TextReelMarkdown", "CMark", "CHTMLTree"] {
                    XCTAssertNil(file.code.range(of: "import \(library)\n"), "\(room)/\(file.name) imports \(library)")
                }
                for reader in ["MarkdownReader", "MarkdownIndex", "SyntaxHighlighter", "MathTypesetter", "PythonHelper", "HTMLFragment"] {
                    XCTAssertFalse(words(file.code).contains(reader), "\(room)/\(file.name) names the reader's \(reader)")
                }
            }
        }
        let manifest = try String(contentsOf: Paths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let engineTarget = try XCTUnwrap(manifest.range(of: #"\.target\(name: "TextReel", dependencies: \[[^\]]*\]"#, options: .regularExpression))
        for dependency in ["TextReelMarkdown", "CMark", "CHTMLTree"] {
            XCTAssertFalse(manifest[engineTarget].contains("\"\(dependency)\""), "the engine target depends on \(dependency)")
        }
    }

    /// The explorer is a target of its own: no step type or descriptor carries a generator, a
    /// weight or simplifications, and the engine names none of the explorer's types.
    func testTheEngineCarriesNothingOfTheExplorer() throws {
        for room in Self.order {
            for file in try files(in: room) {
                XCTAssertNil(file.code.range(of: "import TextReelExplorer\n"), "\(room)/\(file.name) imports the explorer")
                for name in ["ScriptGenerator", "ExploreRandom", "ExplorableStep", "generatorWeight", "simplifications", "exploreActions"] {
                    XCTAssertFalse(words(file.code).contains(name), "\(room)/\(file.name) names the explorer's \(name)")
                }
            }
        }
    }

    /// A room's files stay small enough to read in one sitting: no source file (Swift, C or the
    /// helper's Python) is over 400 lines.
    func testNoSourceFileIsOver400Lines() throws {
        let sources = Paths.root.appendingPathComponent("Sources")
        let walk = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path))
        var checked = 0
        for case let name as String in walk where [".swift", ".py", ".c", ".h"].contains(where: name.hasSuffix) {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            XCTAssertLessThanOrEqual(lines, 400, "Sources/\(name) has \(lines) lines")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100, "the walk found the sources")
    }
}
