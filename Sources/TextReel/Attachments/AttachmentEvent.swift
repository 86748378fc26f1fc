/// What happened to one attachment's view in one frame, for `events.jsonl`.
public struct AttachmentEvent: Encodable, Sendable, Equatable {
    /// What happened to the view, one per event line.
    public enum Kind: String, Encodable, Sendable, CaseIterable {
        /// A view made for the first time.
        case created
        /// Its content appeared after its loading frames.
        case loaded
        /// In the viewport bounds, the same view as last frame.
        case visible
        /// Out of the viewport bounds, held by policy.
        case kept
        /// Back in the viewport bounds: the same view instance, state and surface.
        case reused
        /// Dropped: out of the viewport bounds, or its paragraph was edited, with no policy.
        case discarded
        /// A new view for an attachment that had one before.
        case recreated
        /// Dropped from the kept views over the cap (its state saved when the view saves any).
        case evicted
        /// A new view for an evicted attachment, with its saved state.
        case restored
    }

    /// The attachment's id.
    public var id: String
    /// The provider type's `providerName` ("video").
    public var provider: String
    /// What happened.
    public var event: Kind
    /// The view's visible state and its `instance` number.
    public var state: [String: StateValue]
}
