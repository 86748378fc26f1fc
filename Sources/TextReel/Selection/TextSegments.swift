import Foundation

/// The text container a layout manager lays out into (`NSTextContainer`, reduced to what segment
/// enumeration hands over): the view's width, unlimited height.
public struct TextContainer: @unchecked Sendable, Equatable {
    /// Width and height (0: unlimited) in points.
    public var size: CGSize
    /// Space at each end of a line inside the container; TextReel's insets are in the theme.
    public var lineFragmentPadding: CGFloat = 0
    /// The layout manager that lays out into it (weak, as TextKit's).
    public weak var textLayoutManager: TextLayoutManager?

    /// A container of `size`, laid out into by no layout manager yet.
    public init(size: CGSize, lineFragmentPadding: CGFloat = 0) {
        self.size = size
        self.lineFragmentPadding = lineFragmentPadding
    }

    /// Equal sizes and paddings (the layout manager is who uses it, not what it is).
    public static func == (a: TextContainer, b: TextContainer) -> Bool {
        a.size == b.size && a.lineFragmentPadding == b.lineFragmentPadding
    }
}

extension TextLayoutManager {
    /// What a segment's rect covers (`NSTextLayoutManager.SegmentType`).
    public enum SegmentType: Sendable, CaseIterable {
        /// The text's typographic bounds: its line's ascent to descent.
        case standard
        /// What a selection highlight fills: lines the range goes on from reach the text
        /// column's edges, and the space between lines is covered.
        case selection
        /// A highlight of the text itself (a find result): as `standard`.
        case highlight
    }

    /// How segments are made (`NSTextLayoutManager.SegmentOptions`).
    public struct SegmentOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The block is given no range (nil), which saves making them.
        public static let rangeNotRequired = SegmentOptions(rawValue: 1 << 0)
        /// Only the first and last line of the range.
        public static let middleFragmentsExcluded = SegmentOptions(rawValue: 1 << 1)
        /// The first segment reaches back to the text column's leading edge.
        public static let headSegmentExtended = SegmentOptions(rawValue: 1 << 2)
        /// The last segment reaches on to the text column's trailing edge.
        public static let tailSegmentExtended = SegmentOptions(rawValue: 1 << 3)
        /// An empty range's caret at a wrap sits at the end of the line before.
        public static let upstreamAffinity = SegmentOptions(rawValue: 1 << 4)
    }

    /// The container laid out into.
    public var textContainer: TextContainer {
        var container = TextContainer(size: CGSize(width: containerWidth, height: 0))
        container.textLayoutManager = self
        return container
    }

    /// Calls `block` with each segment of `textRange` in text order, line by line (a line's
    /// bidirectional runs may give it several): its range (nil with `.rangeNotRequired`), its
    /// rect in document coordinates, its baseline's distance from the rect's top, and the
    /// container; `false` from the block stops. An empty range gives one zero-width segment: the
    /// caret. Paragraphs are laid out as needed, as TextKit does. From Pango's line extents and
    /// x ranges, so segments are exact in every script.
    public func enumerateTextSegments(in textRange: TextRange, type: SegmentType, options: SegmentOptions = [],
                                      using block: (TextRange?, CGRect, CGFloat, TextContainer) -> Bool) {
        guard let first = index(of: textRange.start.paragraph), let last = index(of: textRange.end.paragraph), first <= last else { return }
        let container = textContainer
        for index in first...last {
            let fragment = ensureLayout(forParagraphAt: index)
            for segment in segments(of: fragment, in: textRange, type: type, options: options, first: index == first, last: index == last) {
                let range = options.contains(.rangeNotRequired) ? nil : segment.range
                guard block(range, segment.rect, segment.baseline, container) else { return }
            }
        }
    }

    /// One segment, in document coordinates.
    struct Segment {
        let range: TextRange
        let rect: CGRect
        let baseline: CGFloat
    }

    /// The segments `textRange` has in `fragment`, a paragraph it starts in (`first`), ends in
    /// (`last`), or goes through.
    func segments(of fragment: TextLayoutFragment, in textRange: TextRange, type: SegmentType, options: SegmentOptions,
                  first: Bool, last: Bool) -> [Segment] {
        guard let cursor = fragment.cursor else { return [] }
        let paragraph = fragment.paragraph
        let frame = fragment.layoutFragmentFrame
        // Pango counts bytes: the range's ends in bytes here, the segments' back in UTF-16.
        func location(_ offset: Int) -> TextLocation { paragraph.location(utf8: offset) }
        let length = paragraph.text.utf8.count
        if textRange.isEmpty {
            let affinity: TextSelection.Affinity = options.contains(.upstreamAffinity) ? .upstream : .downstream
            guard let caret = fragment.caretRect(atOffset: paragraph.utf8Offset(of: textRange.start), affinity: affinity) else { return [] }
            let line = fragment.textLineFragments.first { $0.typographicBounds.minY <= caret.midY && caret.midY < $0.typographicBounds.maxY }
            let baseline = line.map { $0.glyphOrigin.y - caret.minY } ?? caret.height
            return [Segment(range: textRange, rect: caret.offsetBy(dx: frame.minX, dy: frame.minY), baseline: baseline)]
        }
        let lower = first ? paragraph.utf8Offset(of: textRange.start) : 0
        let upper = last ? paragraph.utf8Offset(of: textRange.end) : length
        // A range going on past the paragraph covers its end: its last line is selected to the edge.
        let pieces = cursor.linePieces(lower..<max(lower, upper) + (last ? 0 : 1))
        let origin = CGPoint(x: frame.minX + fragment.layoutOrigin.x, y: frame.minY + fragment.layoutOrigin.y)
        if !fragment.cells.isEmpty {
            // A table row: each cell's lines are covered where their text is, nothing filled
            // between cells; top to bottom, then left to right, as the row shows them.
            return pieces.flatMap { piece in
                piece.extents.map { extent in
                    Segment(range: TextRange(start: location(piece.range.lowerBound), end: location(min(piece.range.upperBound, length))),
                            rect: CGRect(x: origin.x + extent.minX, y: origin.y + piece.rect.minY, width: max(extent.maxX - extent.minX, 0), height: piece.rect.height),
                            baseline: piece.baseline - piece.rect.minY)
                }
            }.sorted { ($0.rect.minY, $0.rect.minX) < ($1.rect.minY, $1.rect.minX) }
        }
        // Lines are filled to the text column's edges (the width they wrap at), not the view's.
        let leading = origin.x, trailing = cursor.wrapWidth.map { origin.x + $0 } ?? frame.maxX - fragment.trailingPadding
        var segments: [Segment] = []
        for (n, piece) in pieces.enumerated() {
            let isHead = first && n == 0, isTail = last && n == pieces.count - 1
            if options.contains(.middleFragmentsExcluded), !isHead, !isTail { continue }
            let top = origin.y + piece.rect.minY
            // A selection covers the space down to the next line (its line spacing).
            let bottom = type == .selection && n + 1 < pieces.count ? max(origin.y + pieces[n + 1].rect.minY, top) : origin.y + piece.rect.maxY
            // An empty line has no x range: its segment starts as wide as a caret.
            let caretX = cursor.caret(at: piece.range.lowerBound).minX
            let extents = piece.extents.isEmpty ? [(minX: caretX, maxX: caretX)] : piece.extents.sorted { $0.minX < $1.minX }
            let rightToLeft = fragment.textLineFragments.first?.isRightToLeft ?? false
            for (k, extent) in extents.enumerated() {
                var minX = origin.x + extent.minX, maxX = origin.x + extent.maxX
                // The selection type fills from where the range comes in to where it goes on.
                let continuesBefore = type == .selection && !isHead, continuesAfter = type == .selection && !isTail
                let toStart = (continuesBefore || (isHead && options.contains(.headSegmentExtended)))
                let toEnd = (continuesAfter || (isTail && options.contains(.tailSegmentExtended)))
                if k == 0, rightToLeft ? toEnd : toStart { minX = leading }
                if k == extents.count - 1, rightToLeft ? toStart : toEnd { maxX = trailing }
                let range = TextRange(start: location(piece.range.lowerBound), end: location(min(piece.range.upperBound, length)))
                segments.append(Segment(range: range, rect: CGRect(x: minX, y: top, width: max(maxX - minX, 0), height: bottom - top),
                                        baseline: origin.y + piece.baseline - top))
            }
        }
        return segments
    }
}
