import Foundation
import TextReelMarkdown
import XCTest

// Neon's TextKit 2 interface as its STTextView example writes it (ChimeHQ/Neon's
// STTextViewSystemInterface), with the helpers it calls from STTextKitPlus, Rearrange and
// STTextView, renamed only: `NSTextRange` is `TextRange` (a struct: its `convenience init?` is an
// `init?`), `NSTextContentManager` `TextContentManager`, `NSTextContentStorage`
// `TextContentStorage`, `NSTextElementProvider` `TextElementProvider` (whose `offset` is not an
// optional requirement: `offset?(` is `offset(`), `Neon.Token` the `Token` below; STTextView's
// `open func` is `public` in an extension of the port's final class.

/// Neon's token: a name over a range of the text.
struct Token {
    let name: String
    let range: NSRange
}

/// The part of Neon's `TextSystemInterface` the example implements.
protocol TextSystemInterface {
    func clearStyle(in range: NSRange)
    func applyStyle(to token: Token)
    var length: Int { get }
    var visibleRange: NSRange { get }
}

// STTextKitPlus.
extension TextContentManager {
    public var length: Int {
        offset(from: documentRange.location, to: documentRange.endLocation)
    }
}

extension TextRange {
    public init?(_ nsRange: NSRange, in textContentManager: TextContentManager) {
        guard let start = textContentManager.location(textContentManager.documentRange.location, offsetBy: nsRange.location) else {
            return nil
        }
        let end = textContentManager.location(start, offsetBy: nsRange.length)
        self.init(location: start, end: end)
    }
}

// Rearrange.
extension NSRange {
    public static let zero = NSRange(location: 0, length: 0)


    public init(_ textRange: TextRange, provider: TextElementProvider) {
        let docLocation = provider.documentRange.location
        let start = provider.offset(from: docLocation, to: textRange.location)
        let end = provider.offset(from: docLocation, to: textRange.endLocation)
        self.init(location: start, length: end - start)
    }
}

// STTextView's text editing.
extension STTextView {
    var textContentManager: TextContentManager { textLayoutManager.textContentManager! }

    var font: Font { Font(name: "DejaVu Sans Mono", size: 14)! }

    public func addAttributes(_ attrs: [NSAttributedString.Key: Any], range: NSRange, updateLayout: Bool = true) {
        textContentManager.performEditingTransaction {
            (textContentManager as? TextContentStorage)?.textStorage?.addAttributes(attrs, range: range)
        }
        if updateLayout { textViewportLayoutController.setNeedsLayout() }
    }
}

class STTextViewSystemInterface: TextSystemInterface {

    typealias AttributeProvider = (Token) -> [NSAttributedString.Key: Any]?

    private let textView: STTextView
    private let attributeProvider: AttributeProvider

    init(textView: STTextView, attributeProvider: @escaping AttributeProvider) {
        self.textView = textView
        self.attributeProvider = attributeProvider
    }

    func clearStyle(in range: NSRange) {
        guard let textRange = TextRange(range, in: textView.textContentManager) else {
            assertionFailure()
            return
        }

        textView.textLayoutManager.removeRenderingAttribute(.foregroundColor, for: textRange)
        textView.addAttributes([.font: textView.font], range: range)
    }

    func applyStyle(to token: Token) {
        guard let attrs = attributeProvider(token),
              let textRange = TextRange(token.range, in: textView.textContentManager)
        else {
            return
        }

        for attr in attrs {
            if attr.key == .foregroundColor {
                textView.textLayoutManager.addRenderingAttribute(.foregroundColor, value: attr.value, for: textRange)
            } else {
                textView.addAttributes([attr.key: attr.value], range: token.range)
            }
        }
    }

    var length: Int {
        textView.textContentManager.length
    }

    var visibleRange: NSRange {
        guard let viewportRange = textView.textLayoutManager.textViewportLayoutController.viewportRange else {
            return .zero
        }

        return NSRange(viewportRange, provider: textView.textContentManager)
    }
}

/// The interface driven as Neon drives it, from TextKit's rendering-attributes validator: the
/// keywords of each fragment coloured as it is laid out, so the first frame after a far scroll
/// is coloured, not plain.
final class NeonInterfaceTests: XCTestCase {
    static let keyword = Color(hex: 0xD1242F)

    private func editor(_ text: String) -> (STTextView, STTextViewSystemInterface) {
        let attributed = NSAttributedString(string: text, attributes: [.font: Font(name: "DejaVu Sans Mono", size: 14)!])
        let view = STTextView(document: TextDocument(attributedString: attributed), viewportSize: CGSize(width: 420, height: 240))
        let interface = STTextViewSystemInterface(textView: view) { token in
            token.name == "keyword" ? [.foregroundColor: Self.keyword] : nil
        }
        return (view, interface)
    }

    /// The tokens of a paragraph's text: each `let` and `func`.
    private func tokens(in fragment: TextLayoutFragment, provider: TextElementProvider) -> [Token] {
        let start = NSRange(fragment.rangeInElement, provider: provider).location
        let text = fragment.paragraph.text as NSString
        var found: [Token] = []
        for word in ["let", "func"] {
            var search = NSRange(location: 0, length: text.length)
            while case let hit = text.range(of: word, options: [], range: search), hit.location != NSNotFound {
                found.append(Token(name: "keyword", range: NSRange(location: start + hit.location, length: hit.length)))
                search = NSRange(location: hit.upperBound, length: text.length - hit.upperBound)
            }
        }
        return found
    }

    private func keywordPixels(_ frame: RenderedFrame) -> Int {
        var count = 0
        for y in 0..<frame.height { for x in 0..<frame.width {
            let p = frame.pixel(x: x, y: y)
            if p.red > 150 && p.green < 90 && p.blue < 90 { count += 1 }
        } }
        return count
    }

    func testTheFirstFrameAfterAFarScrollIsColoured() throws {
        let lines = (0..<600).map { "let value\($0) = compute(\($0)) // func" }
        let (view, interface) = editor(lines.joined(separator: "\n"))
        var validated = 0
        view.textLayoutManager.renderingAttributesValidator = { textLayoutManager, fragment in
            validated += 1
            let range = NSRange(fragment.rangeInElement, provider: view.textContentManager)
            interface.clearStyle(in: range)
            for token in self.tokens(in: fragment, provider: view.textContentManager) { interface.applyStyle(to: token) }
        }
        XCTAssertGreaterThan(keywordPixels(try view.renderFrame()), 100, "the first frame is coloured")
        let before = validated
        view.scroll(toParagraph: view.document.paragraphs[500].id, offset: 0)
        let far = try view.renderFrame()
        XCTAssertGreaterThan(validated, before, "the new fragments were validated")
        XCTAssertGreaterThan(keywordPixels(far), 100, "the first frame after the scroll is coloured")
        // The colour is drawing only: the lines are where a plain view puts them.
        let (plain, _) = editor(lines.joined(separator: "\n"))
        for manager in [plain.textLayoutManager, view.textLayoutManager] { manager.ensureLayout(forParagraphsIn: 0...3) }
        XCTAssertEqual(plain.textLayoutManager.ensureLayout(forParagraphAt: 3).layoutFragmentFrame,
                       view.textLayoutManager.ensureLayout(forParagraphAt: 3).layoutFragmentFrame)
        var seen = 0
        view.textLayoutManager.enumerateRenderingAttributes(from: view.textLayoutManager.documentRange.location, reverse: false) { _, attributes, _ in
            if attributes[.foregroundColor] as? Color == Self.keyword { seen += 1 }
            return true
        }
        XCTAssertGreaterThan(seen, 10)
    }

    /// Thirty lines of code pasted through an editing transaction stay code: every new line in
    /// the code's font, an empty one as tall as a code line.
    func testAPasteThroughAnEditingTransactionKeepsTheCodeFont() throws {
        let (view, _) = editor("func main() {\n}")
        let pasted = (0..<30).map { $0 % 5 == 4 ? "" : "    let x\($0) = \($0)" }.joined(separator: "\n")
        let storage = try XCTUnwrap(view.textContentStorage?.textStorage)
        view.textContentManager.performEditingTransaction {
            storage.replaceCharacters(in: NSRange(location: 13, length: 0), with: "\n" + pasted)
        }
        _ = try view.renderFrame()
        let manager = view.textLayoutManager
        XCTAssertEqual(manager.paragraphCount, 32)
        let codeLine = manager.ensureLayout(forParagraphAt: 0).textLineFragments[0].typographicBounds.height
        for index in 1...30 {
            let paragraph = view.document.paragraphs[index]
            let fragment = manager.ensureLayout(forParagraphAt: index)
            XCTAssertEqual(fragment.textLineFragments[0].typographicBounds.height, codeLine, accuracy: 0.5, "line \(index): '\(paragraph.text)'")
            if !paragraph.text.isEmpty {
                XCTAssertEqual((storage.attribute(.font, at: NSRange(paragraph.elementRange!, provider: view.textContentManager).location,
                                                  effectiveRange: nil) as? Font)?.familyName, "DejaVu Sans Mono", "line \(index)")
            }
        }
        XCTAssertEqual(storage.string, "func main() {\n" + pasted + "\n}")
    }
}
