import Foundation

/// Display-only attributes by paragraph (TextKit's rendering attributes): runs in UTF-8 offsets
/// of the paragraph's text, in order, none overlapping. They colour, underline and strike text
/// when it is drawn; they never reshape or re-measure it.
struct RenderingAttributeStore {
    /// The keys drawing honours: TextKit's rendering attributes change no glyph's place.
    static let drawnKeys: Set<String> = [NSAttributedString.Key.foregroundColor.rawValue, NSAttributedString.Key.backgroundColor.rawValue,
                                         NSAttributedString.Key.underlineStyle.rawValue, NSAttributedString.Key.strikethroughStyle.rawValue]

    private var runs: [ParagraphID: [AttributeRun]] = [:]

    /// The runs of paragraph `id`.
    func runs(of id: ParagraphID) -> [AttributeRun] { runs[id] ?? [] }

    /// Changes the attributes over `range` of paragraph `id` with `change`; returns whether
    /// anything changed (so unchanged surfaces stay cached).
    mutating func update(_ id: ParagraphID, in range: Range<Int>, _ change: (inout [String: AttributeValue]) -> Void) -> Bool {
        let old = runs[id] ?? []
        let new = AttributeRun.updating(old, in: range, change)
        runs[id] = new.isEmpty ? nil : new
        return new != old
    }

    /// Paragraph `id` is gone or was edited: its attributes go with it, as TextKit drops them.
    mutating func forget(_ id: ParagraphID) { runs[id] = nil }

    /// The paragraphs that have any, for enumeration.
    var paragraphs: Set<ParagraphID> { Set(runs.keys) }
}

extension TextLayoutManager {
    /// Replaces the rendering attributes over `textRange` (`setRenderingAttributes(_:for:)`):
    /// foreground and background colour, underline and strikethrough are drawn; other keys are
    /// kept and enumerated, not drawn. Redraws only the fragments whose attributes changed.
    public func setRenderingAttributes(_ renderingAttributes: [NSAttributedString.Key: Any], for textRange: TextRange) {
        let values = renderingAttributes.reduce(into: [String: AttributeValue]()) { $0[$1.key.rawValue] = AttributeValue($1.value) }
        updateRenderingAttributes(in: textRange) { $0 = values }
    }

    /// Sets one rendering attribute over `textRange`, or removes it when `value` is nil
    /// (`addRenderingAttribute(_:value:for:)`).
    public func addRenderingAttribute(_ attribute: NSAttributedString.Key, value: Any?, for textRange: TextRange) {
        let converted = value.flatMap(AttributeValue.init)
        updateRenderingAttributes(in: textRange) { $0[attribute.rawValue] = converted }
    }

    /// Removes one rendering attribute over `textRange` (`removeRenderingAttribute(_:for:)`).
    public func removeRenderingAttribute(_ attribute: NSAttributedString.Key, for textRange: TextRange) {
        updateRenderingAttributes(in: textRange) { $0[attribute.rawValue] = nil }
    }

    /// Calls `block` with each run of rendering attributes from `location` on (or back, with
    /// `reverse`), in document order, until it returns false
    /// (`enumerateRenderingAttributes(from:reverse:using:)`).
    public func enumerateRenderingAttributes(from location: TextLocation, reverse: Bool,
                                             using block: (TextLayoutManager, [NSAttributedString.Key: Any], TextRange) -> Bool) {
        guard let start = index(of: location.paragraph) else { return }
        let with = renderingAttributes.paragraphs
        var index = start
        while index >= 0 && index < paragraphCount {
            let paragraph = document.paragraphs[index]
            if with.contains(paragraph.id) {
                let here = paragraph.utf8Offset(of: location)
                var runs = renderingAttributes.runs(of: paragraph.id)
                if index == start { runs = runs.filter { reverse ? $0.range.lowerBound < here : $0.range.upperBound > here } }
                for run in reverse ? runs.reversed() : runs {
                    let range = TextRange(start: TextLocation(paragraph: paragraph.id, offset: paragraph.text.utf16Offset(ofUTF8: run.range.lowerBound)),
                                          end: TextLocation(paragraph: paragraph.id, offset: paragraph.text.utf16Offset(ofUTF8: run.range.upperBound)))
                    let values = run.attributes.reduce(into: [NSAttributedString.Key: Any]()) { $0[NSAttributedString.Key($1.key)] = $1.value.object }
                    if !block(self, values, range) { return }
                }
            }
            index += reverse ? -1 : 1
        }
    }

    /// The rendering attributes drawn over paragraph `id`.
    func renderingAttributeRuns(of id: ParagraphID) -> [AttributeRun] { renderingAttributes.runs(of: id) }

    private func updateRenderingAttributes(in textRange: TextRange, _ change: (inout [String: AttributeValue]) -> Void) {
        guard let first = index(of: textRange.start.paragraph), let last = index(of: textRange.end.paragraph), first <= last else { return }
        for index in first...last {
            let paragraph = document.paragraphs[index]
            let from = index == first ? paragraph.utf8Offset(of: textRange.start) : 0
            let to = index == last ? paragraph.utf8Offset(of: textRange.end) : paragraph.text.utf8.count
            if renderingAttributes.update(paragraph.id, in: from..<max(from, to), change) { invalidateSurfaces(index...index) }
        }
    }

    /// Runs `renderingAttributesValidator` for `fragment` once after it is laid out or its
    /// rendering attributes are invalidated: before the pass configures and draws it.
    func validateRenderingAttributes(of fragment: TextLayoutFragment) {
        guard let validator = renderingAttributesValidator, !validatedRendering.contains(fragment.paragraph.id) else { return }
        validatedRendering.insert(fragment.paragraph.id)
        validator(self, fragment)
    }
}
