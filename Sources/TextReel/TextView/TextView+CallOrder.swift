/// The call-order verifier: the base delegate implementations record that they ran, and a pass
/// whose override skipped `super` (or read controller state before `didLayout`) is refused.
extension TextView {
    struct CallOrder {
        var willLayout = false
        var didLayout = false
        var configured = 0
        /// The base delegate calls in order: "willLayout", "configure:<id>", "didLayout".
        var log: [String] = []
    }

    /// Checks the pass against what the controller reports it did.
    func verifyCallOrder(_ report: TextViewportLayoutController.Report) throws {
        if !callOrder.willLayout { throw TextViewError.missingSuperCall(method: "textViewportLayoutControllerWillLayout(_:)") }
        if callOrder.configured != report.configured {
            throw TextViewError.missingSuperCall(method: "textViewportLayoutController(_:configureRenderingSurfaceFor:)")
        }
        if !callOrder.didLayout { throw TextViewError.missingSuperCall(method: "textViewportLayoutControllerDidLayout(_:)") }
        if let early = report.earlyReads.first { throw early }
    }
}
