import Foundation

extension TextDocument {
    /// A deterministic document of `count` paragraphs for benchmarks and tests: mixed lengths,
    /// Latin with some Arabic and CJK, a heading every 40 paragraphs, an inline attachment every
    /// 10 and a block attachment every 25. Each paragraph depends only on its index, so documents
    /// of different sizes share their beginning (and first frames compare like with like).
    /// `format` reads text inserted later (none: inserting text is an error).
    public static func generated(paragraphs count: Int, attachments: Bool = true, format: (any DocumentFormat)? = nil) -> TextDocument {
        let latin = ["layout", "fragment", "viewport", "paragraph", "the", "of", "scroll", "and", "text", "glyph",
                     "line", "anchor", "estimate", "measure", "render", "a", "surface", "cache", "frame", "is"]
        let arabic = ["النص", "العربي", "من", "اليمين", "إلى", "اليسار", "فقرة", "سطر"]
        let cjk = ["文本", "布局", "引擎", "段落", "视口", "片段", "绘制", "可见"]
        var paragraphs: [TextParagraph] = []
        paragraphs.reserveCapacity(count)
        for index in 0..<count {
            let id = ParagraphID(index)
            var random = SplitMix(seed: UInt64(index))
            if attachments && index % 25 == 24 {
                let attachment = TextAttachment(scheme: "drawing", id: "d\(index)", size: CGSize(width: 240, height: 120),
                                                url: "drawing:d\(index)", isBlock: true)
                paragraphs.append(TextParagraph(id: id, kind: .blockAttachment, text: TextAttachment.character,
                                                attachments: [attachment]))
                continue
            }
            if index % 40 == 0 {
                paragraphs.append(TextParagraph(id: id, kind: .heading(level: 2), text: "Section \(index / 40 + 1)"))
                continue
            }
            let script = random.next() % 10
            let words = script == 0 ? arabic : script == 1 ? cjk : latin
            let length = 6 + Int(random.next() % 70)
            var text = ""
            for w in 0..<length {
                if w > 0 && script != 1 { text += " " }
                text += words[Int(random.next() % UInt64(words.count))]
            }
            var paragraphAttachments: [TextAttachment] = []
            if attachments && index % 10 == 9 {
                text += " "
                paragraphAttachments.append(TextAttachment(scheme: "control", id: "c\(index)", size: CGSize(width: 52, height: 24),
                                                           url: "control:c\(index)?kind=toggle", parameters: ["kind": "toggle"],
                                                           utf8Offset: text.utf8.count))
                text += TextAttachment.character + " end."
            }
            paragraphs.append(TextParagraph(id: id, kind: .body, text: text + ".", attachments: paragraphAttachments))
        }
        return TextDocument(paragraphs: paragraphs, format: format)
    }
}

extension TextDocument {
    /// The generated document of `count` paragraphs as Markdown (reading it back gives the same
    /// paragraphs), for benchmarks and the explorer.
    public static func generatedMarkdown(paragraphs count: Int) -> String {
        var text = ""
        text.reserveCapacity(count * 300)
        for paragraph in generated(paragraphs: count).paragraphs {
            switch paragraph.kind {
            case .heading(let level):
                text += String(repeating: "#", count: level) + " " + paragraph.text + "\n\n"
            case .blockAttachment:
                let a = paragraph.attachments[0]
                text += "![](\(a.scheme):\(a.id)?size=\(Int(a.size.width))x\(Int(a.size.height)))\n\n"
            default:
                var body = paragraph.text
                for a in paragraph.attachments {
                    body = body.replacingOccurrences(of: TextAttachment.character,
                        with: "![](control:\(a.id)?kind=toggle&size=\(Int(a.size.width))x\(Int(a.size.height)))")
                }
                text += body + "\n\n"
            }
        }
        return text
    }
}
