import Foundation

/// An attachment in the text: an image, video, drawing or control, named by its URL scheme.
public struct TextAttachment: Hashable, Sendable {
    /// The provider type's scheme: "image", "video", "drawing", "control" or a registered one.
    public let scheme: String
    /// Stable id: from `?id=` or the URL path, else derived from its place in the document.
    public let id: String
    /// Its box in points.
    public let size: CGSize
    /// The URL as written in the document.
    public let url: String
    /// Query parameters other than `size` and `id` (`duration`, `kind`, …).
    public let parameters: [String: String]
    /// The image file for `image` attachments, resolved against the document's folder.
    public let file: URL?
    /// The Markdown alt text (`![alt](…)`); a text field shows it when empty.
    public let altText: String
    /// True when the attachment is alone in its paragraph.
    public let isBlock: Bool
    /// Byte offset of its U+FFFC in the paragraph text (Pango's unit, so internal: its provider's
    /// `location` counts UTF-16, as the public API does).
    package let utf8Offset: Int
    /// Why an image cannot be drawn ("damaged PNG: data ends at byte 812"), shown on its
    /// placeholder; nil when it can.
    public let problem: String?
    /// The share of the text column it is as wide as (HTML's `width="50%"`), its height keeping
    /// `size`'s aspect; nil: `size`.
    public package(set) var widthFraction: Double?
    /// The looks it shows in, as GitHub chooses a README's images by its colour scheme: nil in
    /// every look; true only in dark ones (`#gh-dark-mode-only`, a `<picture>`'s dark
    /// `<source>`), false only in light ones. Elsewhere it takes no room.
    public package(set) var shownInDarkLook: Bool?

    /// An attachment as the document reader makes it.
    package init(scheme: String, id: String, size: CGSize, url: String, parameters: [String: String] = [:],
         file: URL? = nil, altText: String = "", isBlock: Bool = false, utf8Offset: Int = 0, problem: String? = nil,
         widthFraction: Double? = nil) {
        self.scheme = scheme; self.id = id; self.size = size; self.url = url
        self.parameters = parameters; self.file = file; self.altText = altText
        self.isBlock = isBlock; self.utf8Offset = utf8Offset; self.problem = problem
        self.widthFraction = widthFraction
    }

    package func at(offset: Int, isBlock: Bool) -> TextAttachment {
        var moved = TextAttachment(scheme: scheme, id: id, size: size, url: url, parameters: parameters, file: file, altText: altText,
                                   isBlock: isBlock, utf8Offset: offset, problem: problem, widthFraction: widthFraction)
        moved.shownInDarkLook = shownInDarkLook
        return moved
    }

    /// The same attachment at another size with other parameters (and a problem, if given): what
    /// work deferred to layout makes of it (`AttachmentKind.prepare`).
    package func with(size: CGSize, parameters: [String: String], problem: String? = nil) -> TextAttachment {
        var changed = TextAttachment(scheme: scheme, id: id, size: size, url: url, parameters: parameters, file: file, altText: altText,
                                     isBlock: isBlock, utf8Offset: utf8Offset, problem: problem ?? self.problem, widthFraction: widthFraction)
        changed.shownInDarkLook = shownInDarkLook
        return changed
    }

    /// Whether it shows in a look that is dark or not.
    func shows(inDarkLook dark: Bool) -> Bool { shownInDarkLook.map { $0 == dark } ?? true }

    /// Its size in a text column `available` points wide, before a block too wide is scaled down.
    func size(in available: Double, given size: CGSize) -> CGSize {
        guard let widthFraction, size.width > 0 else { return size }
        let width = (available * widthFraction).rounded()
        return CGSize(width: width, height: (size.height * width / size.width).rounded())
    }

    /// The problem of a remote image: TextReel renders offline and fetches nothing.
    package static let notFetched = "remote image, not fetched"

    /// Whether this is a remote image, drawn as its alt text in a badge-like box.
    public var isNotFetched: Bool { problem == Self.notFetched }

    /// A remote image without a declared size: one line tall (a badge's 20 points) and as wide
    /// as its alt text at the badge's 11 points.
    package static func badgeSize(for altText: String) -> CGSize {
        CGSize(width: min((Double(max(altText.count, 5)) * 6.2 + 14).rounded(), 400), height: 20)
    }

    /// The object replacement character that stands for an attachment in the text.
    public static let character = "\u{FFFC}"
}
