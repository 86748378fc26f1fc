import Foundation
import TextReelMarkdown

// STTextView's insertion point views (krzyzanowskim/STTextView, Sources/STTextViewAppKit/
// STInsertionPointView.swift and STInsertionPointIndicatorProtocol.swift), ported by renaming:
// `NSView` → `View`, `NSColor` → `Color`, `NSRect` → `CGRect`, `NSSize` → `CGSize`.

/// Custom insertion point indicator view. Optional.
public protocol STInsertionPointIndicatorProtocol: View {
    var insertionPointColor: Color { get set }

    func blinkStart()
    func blinkStop()
}

/// Wrapper for insertion point indicators.
///
/// STInsertionPointView
///      |---textInsertionIndicator (STInsertionPointIndicatorProtocol)
///
class STInsertionPointView: View {
    private let textInsertionIndicator: any STInsertionPointIndicatorProtocol

    override var isFlipped: Bool {
        true
    }

    var insertionPointColor: Color {
        get {
            textInsertionIndicator.insertionPointColor
        }

        set {
            textInsertionIndicator.insertionPointColor = newValue
        }
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    init(frame frameRect: CGRect, textInsertionIndicator: STInsertionPointIndicatorProtocol) {
        self.textInsertionIndicator = textInsertionIndicator
        super.init(frame: frameRect)

        addSubview(textInsertionIndicator)
    }

    override func setFrameSize(_ newSize: CGSize) {
        super.setFrameSize(newSize)
        // Manually reset size because `NSTextInsertionIndicator`
        // does not react to its autoresizingMask
        textInsertionIndicator.frame.size = newSize
    }

    func blinkStart() {
        textInsertionIndicator.blinkStart()
    }

    func blinkStop() {
        textInsertionIndicator.blinkStop()
    }

}
