import Foundation

/// The extension points of a layout pass, as in TextKit 2. `TextView` conforms; subclasses override
/// and must call `super` (TextReel reports a forgotten `super` as a `TextViewError`).
public protocol TextViewportLayoutControllerDelegate: AnyObject {
    /// The rect to lay out: the visible rect plus overdraw.
    func viewportBounds(for textViewportLayoutController: TextViewportLayoutController) -> CGRect
    /// Before a pass; the controller still holds the previous pass.
    func textViewportLayoutControllerWillLayout(_ textViewportLayoutController: TextViewportLayoutController)
    /// Once per laid-out fragment in the viewport bounds, top to bottom.
    func textViewportLayoutController(_ textViewportLayoutController: TextViewportLayoutController,
                                      configureRenderingSurfaceFor textLayoutFragment: TextLayoutFragment)
    /// After the pass: `viewportBounds` and `viewportRange` are valid.
    func textViewportLayoutControllerDidLayout(_ textViewportLayoutController: TextViewportLayoutController)
    /// The viewport asked for another pass (an invalidation).
    func textViewportLayoutControllerReceivedSetNeedsLayout(_ textViewportLayoutController: TextViewportLayoutController)
}

/// Misuse of the delegate protocol, reported by `TextView.renderFrame()` instead of a broken layout
/// or a crash.
public enum TextViewError: Error, Equatable, CustomStringConvertible {
    /// An override did not call `super`.
    case missingSuperCall(method: String)
    /// Controller state was read during a pass before `didLayout`, where it is not valid yet.
    case stateReadBeforeDidLayout(property: String, method: String)

    public var description: String {
        switch self {
        case .missingSuperCall(let method):
            "\(method) was overridden without calling super; call super.\(method) first so the layout pass can place and draw fragments"
        case .stateReadBeforeDidLayout(let property, let method):
            "\(property) was read in \(method), before the pass finished; read controller state in textViewportLayoutControllerDidLayout(_:) or after renderFrame()"
        }
    }
}
