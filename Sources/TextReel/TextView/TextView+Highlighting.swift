import Foundation

extension TextView {
    /// After an edit of code paragraph `index`: its band is lexed again from the state it starts
    /// in, and so is each following band of the block until one starts in the state it had
    /// before (see `SyntaxHighlighter`); the bands whose colours changed are replaced. Typing
    /// into a 10,000-line block lexes a band or two, not the block.
    func rehighlightCode(at index: Int) {
        let manager = textLayoutManager
        guard index >= 0, index < manager.paragraphCount, case .codeBlock(let info?) = document.paragraphs[index].kind,
              let format = document.format, let language = format.language(ofInfo: info) else { return }
        // From the nearest band whose start state is known (a band after a token that spans
        // bands has none), to the block's end.
        var first = index
        while first > 0, document.paragraphs[first].ending.joinsPrevious, document.paragraphs[first].syntaxStart == nil { first -= 1 }
        var last = index
        while last + 1 < manager.paragraphCount, document.paragraphs[last].ending.joinsNext { last += 1 }
        var bands = (first...last).map { document.paragraphs[$0] }
        // A block's first band starts where the language does (a split may have left another state).
        if !bands[0].ending.joinsPrevious { bands[0].syntaxStart = nil }
        guard let lexed = format.highlighted(bands, language: language, syncAfter: index - first) else { return }
        codeBandsLexed += lexed.count
        for (k, band) in lexed.enumerated() where band != bands[k] { manager.replaceParagraph(at: first + k, with: band) }
    }
}
