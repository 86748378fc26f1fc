/// When a text view keeps an attachment's view instead of discarding it (the
/// `UITextAttachmentViewProviderReusePolicy` analogue). Registered per provider type.
public struct ReusePolicy: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Keep the view while its attachment is out of the viewport bounds; reuse it on return.
    public static let onScrollingOutOfViewport = ReusePolicy(rawValue: 1 << 0)
    /// Keep the provider and view when the paragraph holding the attachment is edited.
    public static let onEditingInlineParagraphs = ReusePolicy(rawValue: 1 << 1)

    /// The policy named as in scripts: "onScrollingOutOfViewport", "onEditingInlineParagraphs".
    public init?(name: String) {
        switch name {
        case "onScrollingOutOfViewport": self = .onScrollingOutOfViewport
        case "onEditingInlineParagraphs": self = .onEditingInlineParagraphs
        default: return nil
        }
    }

    /// The names scripts use, in option order.
    public static let names = ["onScrollingOutOfViewport", "onEditingInlineParagraphs"]

    /// The names of the policies this one holds, in `names` order.
    public var memberNames: [String] { Self.names.filter { contains(ReusePolicy(name: $0)!) } }
}
