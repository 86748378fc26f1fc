/// The marker of a list item, as GitHub's stylesheet draws it: bullets disc, circle, then square
/// from the third level down; numbers decimal, lower-roman in a list nested once
/// (`ol ol`, `ul ol`), lower-alpha nested deeper. A number below one is decimal (as CSS falls back).
package enum ListMarker {
    /// The attribute over a block that starts a list item but is no paragraph (a fence, a
    /// heading, a table's first row): its item's marker, drawn beside its first line.
    package static let key = "TextReelListMarker"
    /// The attribute over a paragraph in a quote inside a list: how many lists hold the outermost
    /// quote, whose bars stand after those lists' indents.
    package static let listsOutsideQuotesKey = "TextReelListsOutsideQuotes"

    /// `depth` counts the item's list: 1 at the top level.
    package static func text(ordered: Bool, number: Int, depth: Int) -> String {
        guard ordered else { return ["•", "◦", "▪"][min(max(depth, 1), 3) - 1] }
        guard number >= 1 else { return "\(number)." }
        switch depth {
        case ...1: return "\(number)."
        case 2: return number < 4000 ? roman(number) + "." : "\(number)."
        default: return alpha(number) + "."
        }
    }

    static func roman(_ number: Int) -> String {
        let values = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                      (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        var rest = number, text = ""
        for (value, letters) in values { while rest >= value { text += letters; rest -= value } }
        return text
    }

    /// a … z, then aa, ab … (CSS's alphabetic counting).
    static func alpha(_ number: Int) -> String {
        var rest = number, text = ""
        while rest > 0 {
            rest -= 1
            text = String(UnicodeScalar(UInt8(97 + rest % 26))) + text
            rest /= 26
        }
        return text
    }
}
