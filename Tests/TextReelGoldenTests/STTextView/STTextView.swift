import Foundation
import TextReelMarkdown

// The parts of STTextView's view class (krzyzanowskim/STTextView, Sources/STTextViewAppKit/
// STTextView.swift and its extensions) that its invisibles and insertion-point code reach, ported
// by renaming (`NSTextLayoutManager` → `TextLayoutManager`, `NSTextViewportLayoutController` →
// `TextViewportLayoutController`, `NSColor` → `Color`): the invisibles setting that invalidates
// the viewport's layout, the layout-manager delegate that makes `STTextLayoutFragment`s, the
// viewport delegate that hands each fragment the setting, and the insertion-point state. The view
// hierarchy is TextReel's `contentView`; the delegate proxy keeps only the insertion-point hook.
// TextReel's own caret is off (`drawsCaret`): STTextView draws its insertion point itself.

final class STTextView: TextView, TextLayoutManagerDelegate {
    /// A Boolean value indicating whether the view draws invisible characters.
    public var showsInvisibleCharacters = false {
        willSet {
            textLayoutManager.invalidateLayout(for: textLayoutManager.textViewportLayoutController.viewportRange ?? textLayoutManager.documentRange)
        }
    }

    /// The color of the insertion point.
    public var insertionPointColor: Color = .defaultTextInsertionPoint

    var isFirstResponder = false

    var isEditable = true

    /// A Boolean value that determines whether the text view should draw its insertion point.
    public var shouldDrawInsertionPoint: Bool {
        if !isFirstResponder {
            return false
        }

        if !isEditable {
            return false
        }

        return true
    }

    let delegateProxy = STTextViewDelegateProxy()

    var _defaultTypingAttributes: [NSAttributedString.Key: Any] = [:]

    override init(document: TextDocument, viewportSize: CGSize, scale: Double = 1, theme: Theme = Theme(),
                  fontSet: FontSet = .standard, providers: AttachmentProviders = AttachmentProviders()) {
        super.init(document: document, viewportSize: viewportSize, scale: scale, theme: theme, fontSet: fontSet, providers: providers)
        drawsCaret = false
        textLayoutManager.delegate = self
    }

    // MARK: NSTextLayoutManagerDelegate

    public func textLayoutManager(_ textLayoutManager: TextLayoutManager, textLayoutFragmentFor location: TextLocation, in textElement: TextElement) -> TextLayoutFragment {
        STTextLayoutFragment(
            textElement: textElement,
            range: textElement.elementRange,
            defaultTypingAttributes: _defaultTypingAttributes
        )
    }

    // MARK: NSTextViewportLayoutControllerDelegate

    public override func textViewportLayoutController(_ textViewportLayoutController: TextViewportLayoutController, configureRenderingSurfaceFor textLayoutFragment: TextLayoutFragment) {
        super.textViewportLayoutController(textViewportLayoutController, configureRenderingSurfaceFor: textLayoutFragment)
        if let textLayoutFragment = textLayoutFragment as? STTextLayoutFragment,
           textLayoutFragment.showsInvisibleCharacters != showsInvisibleCharacters {
            textLayoutFragment.showsInvisibleCharacters = showsInvisibleCharacters
        }
    }

    public override func textViewportLayoutControllerDidLayout(_ textViewportLayoutController: TextViewportLayoutController) {
        super.textViewportLayoutControllerDidLayout(textViewportLayoutController)
        updateInsertionPointStateAndRestartTimer()
    }
}

/// `STTextViewDelegateProxy`, with only the hook the insertion point asks.
final class STTextViewDelegateProxy {
    func textViewInsertionPointView(_ textView: STTextView, frame: CGRect) -> (STInsertionPointIndicatorProtocol)? {
        nil
    }
}

extension Color {
    static var defaultTextInsertionPoint: Color {
        if #available(macOS 14, *) {
            Color.textInsertionPointColor
        } else {
            Color.controlAccentColor
        }
    }
}
