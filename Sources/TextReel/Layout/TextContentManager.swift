import Foundation

/// What TextKit's element providers answer (`NSTextElementProvider`): the document's range, and
/// locations moved and measured in UTF-16 code units, one for each paragraph break.
public protocol TextElementProvider: AnyObject {
    /// From the document's start to its end.
    var documentRange: TextRange { get }
    /// How far `to` is from `from` (negative when `to` comes first); 0 outside the document.
    func offset(from: TextLocation, to: TextLocation) -> Int
    /// The location `offset` units after `location` (before it when negative); nil outside.
    func location(_ location: TextLocation, offsetBy offset: Int) -> TextLocation?
}

/// The content a layout manager lays out (`NSTextContentManager`); `TextContentStorage` is the
/// one a text view has. One made by your code (`TextContentManager()`) lays out nothing: its
/// document range is empty until a layout manager's is asked for.
open class TextContentManager: TextElementProvider {
    weak var manager: TextLayoutManager?

    /// A content manager no layout manager uses yet.
    public init() {}

    init(manager: TextLayoutManager) { self.manager = manager }

    /// The layout managers laying this content out (TextKit's `textLayoutManagers`).
    public var textLayoutManagers: [TextLayoutManager] { manager.map { [$0] } ?? [] }

    /// The layout manager whose view edits go through (`primaryTextLayoutManager`).
    public var primaryTextLayoutManager: TextLayoutManager? { manager }

    /// From the document's start to its end (`NSTextContentManager.documentRange`).
    open var documentRange: TextRange {
        manager?.documentRange ?? TextRange(location: TextLocation(paragraph: ParagraphID(-1)))
    }

    /// The location `offset` UTF-16 units after `location` (before it when negative), nil outside
    /// the document (`NSTextContentManager.location(_:offsetBy:)`).
    open func location(_ location: TextLocation, offsetBy offset: Int) -> TextLocation? {
        manager?.location(location, offsetBy: offset)
    }

    /// How far `to` is from `from`, in UTF-16 units (`NSTextContentManager.offset(from:to:)`).
    open func offset(from: TextLocation, to: TextLocation) -> Int {
        manager?.offset(from: from, to: to) ?? 0
    }

    /// Runs `transaction`, whose `textStorage` edits are laid out together once it ends
    /// (`performEditingTransaction(_:)`): each edit only marks the view as needing layout.
    open func performEditingTransaction(_ transaction: () throws -> Void) rethrows {
        try transaction()
        manager?.viewportController?.setNeedsLayout()
    }
}

extension TextLayoutFragment {
    /// The options of `enumerateTextLayoutFragments(from:options:using:)`, where TextKit names
    /// them (`NSTextLayoutFragment.EnumerationOptions`).
    public typealias EnumerationOptions = TextLayoutManager.EnumerationOptions
}
