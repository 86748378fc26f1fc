import Foundation

/// Attachments: reuse policies, caps on kept views, and scripted actions on views.
extension TextView {
    /// Keeps views of `type`'s attachments across scrolling and/or paragraph edits, for the
    /// lifetime of the text view (as `UITextView.register(_:forTextAttachmentViewProviderType:)`).
    public func register(_ policy: ReusePolicy, forTextAttachmentViewProviderType type: TextAttachmentViewProvider.Type) {
        attachmentHost.register(policy, for: type)
    }

    /// Caps on attachment views kept out of the viewport bounds (count and surface bytes).
    public var maximumKeptAttachmentViews: Int {
        get { attachmentHost.maximumKeptViews }
        set { attachmentHost.maximumKeptViews = newValue }
    }
    /// The most bytes of surfaces the kept views may hold.
    public var maximumKeptAttachmentBytes: Int {
        get { attachmentHost.maximumKeptBytes }
        set { attachmentHost.maximumKeptBytes = newValue }
    }

    /// The live view of attachment `id`, if it has one.
    public func attachmentView(id: String) -> AttachmentView? { attachmentHost.view(for: id) }

    /// Plays, pauses, focuses, types into … the view of attachment `id` (made if it has none).
    public func perform(_ action: AttachmentAction, onAttachment id: String) throws {
        guard let paragraph = document.index(ofAttachment: id).map({ document.paragraphs[$0] }),
              let attachment = paragraph.attachments.first(where: { $0.id == id }) else {
            throw TextReelError("no attachment '\(id)' in the document")
        }
        try attachmentHost.perform(action, on: attachment, at: paragraph.location(utf8: attachment.utf8Offset))
    }

    /// Attachment events of the passes since the last call, the last 4,096 at most (each pass's
    /// own are in its `LayoutPass.attachmentEvents`).
    public func drainAttachmentEvents() -> [AttachmentEvent] {
        defer { undrainedAttachmentEvents.removeAll() }
        return Array(undrainedAttachmentEvents.suffix(Self.keptAttachmentEvents))
    }
}
