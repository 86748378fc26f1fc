import Foundation
import TextReelMarkdown

// STTextView's `STLineNumberRulerView` (krzyzanowskim/STTextView, Sources/STTextView/
// STLineNumberRulerView.swift), ported as a TextKit 2 editor's code ports: AppKit's `NSRulerView`
// is `RulerView`, `NSGraphicsContext.current?.cgContext` is `GraphicsContext.current`, `NSFont`
// `Font`, `NSColor` `Color`. Two lines change beyond names: TextReel has no CoreText, so the
// `CTLineDraw` at a text position becomes `GraphicsContext.text(_:baseline:…)`, and there is no
// extra line fragment (a document's last empty line) to number.

public final class STLineNumberRulerView: RulerView {
    private var textView: TextView? {
        clientView
    }

    private var font: Font {
        Font.monospacedDigitSystemFont(ofSize: 11, weight: .regular)
    }

    public var textColor: Color?

    public override func drawHashMarksAndLabels(in rect: CGRect) {
        guard let context = GraphicsContext.current,
              let textView = textView
        else {
            return
        }

        let relativePoint = self.convert(CGPoint.zero, from: textView)

        context.saveGState()

        var lineNum = 1
        let enumerateStartLocation = textView.textLayoutManager.documentRange.location
        textView.textLayoutManager.enumerateTextLayoutFragments(from: enumerateStartLocation, options: [.ensuresLayout]) { textLayoutFragment in

            for textLineFragment in textLayoutFragment.textLineFragments where textLayoutFragment.textLineFragments.first == textLineFragment {

                let locationForFirstCharacter = textLineFragment.locationForCharacter(at: 0)
                let textPosition = CGPoint(x: textLayoutFragment.layoutFragmentFrame.origin.x + 4,
                                           y: textLayoutFragment.layoutFragmentFrame.origin.y + locationForFirstCharacter.y + relativePoint.y)
                context.text("\(lineNum)", baseline: textPosition, size: font.pointSize, textColor ?? Color.secondaryLabel)

                lineNum += 1
            }

            return true
        }

        context.restoreGState()

        // Adjust thickness
        let estimatedWidth = (log10(CGFloat(lineNum)) + 1) * font.pointSize * 0.6
        if estimatedWidth != ruleThickness {
            ruleThickness = estimatedWidth
        }
    }
}
