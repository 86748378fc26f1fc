import Foundation

/// Creates, keeps, reuses and discards attachment views, per the reuse policy registered for
/// each provider type, and records every decision as an `AttachmentEvent`.
///
/// Better than TextKit: kept views are bounded by count and bytes; the least recently visible
/// go first (ties by id), pinned views (focused, playing) never go, and an evicted view's state
/// is saved and restored when its attachment returns.
final class AttachmentViewHost {
    private struct Entry {
        let provider: TextAttachmentViewProvider
        var inBounds: Bool
        var lastVisiblePass: Int
        /// Made by an action before this pass: its "created" already says it is here.
        var madeByAction = false
        var view: AttachmentView { provider.view }
    }

    private let providers: AttachmentProviders
    private var policies: [ObjectIdentifier: ReusePolicy] = [:]
    private var entries: [String: Entry] = [:]
    private var saved: [String: [String: StateValue]] = [:]
    private var everMade: Set<String> = []
    private var nextInstance = 1
    private var pass = 0
    /// For flicker: attachments in the bounds last pass, that have loaded once, that were evicted.
    private var previouslyInBounds: Set<String> = []
    private var loadedOnce: Set<String> = []
    private var evicted: Set<String> = []
    private var events: [AttachmentEvent] = []
    /// Caps on views kept out of the viewport bounds.
    var maximumKeptViews = 16
    var maximumKeptBytes = 32 << 20

    init(providers: AttachmentProviders) { self.providers = providers }

    func register(_ policy: ReusePolicy, for type: TextAttachmentViewProvider.Type) {
        policies[ObjectIdentifier(type)] = policy
    }

    func policy(for provider: TextAttachmentViewProvider) -> ReusePolicy {
        policies[ObjectIdentifier(Swift.type(of: provider))] ?? []
    }

    /// The live view for attachment `id`, if any.
    func view(for id: String) -> AttachmentView? { entries[id]?.view }

    /// Every live view's instance, by attachment id.
    var liveViews: [String: Int] { entries.mapValues { $0.view.instance } }
    /// Whether any live view may change with time alone.
    var anyAnimating: Bool { entries.values.contains { $0.view.isAnimating } }

    // MARK: A pass

    /// Called once per layout pass with the attachments in the viewport bounds (document order),
    /// the script time that passed since the previous pass, and the bytes of the surfaces drawn
    /// for views (id → view instance and bytes; a view without one counts its box). Returns the attachments that
    /// flicker: drawn as loading again after they had loaded, while they stayed in the bounds or
    /// left them under `.onScrollingOutOfViewport` (evictions over the caps excepted).
    @discardableResult
    func update(inBounds attachments: [(TextAttachment, TextLocation)], elapsed: Double,
                surfaceBytes: [String: (instance: Int, bytes: Int)] = [:]) -> [String] {
        pass += 1
        defer { previouslyInBounds = Set(attachments.map(\.0.id)) }
        var loadedNow: [String] = []
        for id in entries.keys.sorted() {
            let view = entries[id]!.view
            view.advance(by: elapsed)
            if !view.isLoaded {
                view.framesSinceCreation += 1
                if view.isLoaded { loadedNow.append(id) }
            }
        }
        var seen = Set<String>()
        for (attachment, location) in attachments where seen.insert(attachment.id).inserted {
            if var entry = entries[attachment.id] {
                if !entry.madeByAction { record(entry.provider, entry.inBounds ? .visible : .reused) }
                entry.madeByAction = false
                if loadedNow.contains(attachment.id) { record(entry.provider, .loaded) }
                entry.inBounds = true
                entry.lastVisiblePass = pass
                entries[attachment.id] = entry
            } else {
                make(attachment, at: location, inBounds: true)
            }
        }
        // Views that finished loading while out of view say so too.
        for id in loadedNow where !seen.contains(id) { record(entries[id]!.provider, .loaded) }
        for id in entries.keys.sorted() where !seen.contains(id) && entries[id]!.inBounds {
            let entry = entries[id]!
            if policy(for: entry.provider).contains(.onScrollingOutOfViewport) {
                entries[id]!.inBounds = false
                record(entry.provider, .kept)
            } else {
                discard(id)
            }
        }
        evictOverCaps(surfaceBytes)
        var flicker: [String] = []
        for id in seen.sorted() {
            guard let entry = entries[id] else { continue }
            if entry.view.isLoaded { loadedOnce.insert(id); continue }
            guard loadedOnce.contains(id), !evicted.contains(id) else { continue }
            if previouslyInBounds.contains(id) || policy(for: entry.provider).contains(.onScrollingOutOfViewport) {
                flicker.append(id)
            }
        }
        return flicker
    }

    @discardableResult
    private func make(_ attachment: TextAttachment, at location: TextLocation, inBounds: Bool) -> Entry {
        let type = providers.type(forScheme: attachment.scheme) ?? TextAttachmentViewProvider.self
        let provider = type.init(textAttachment: attachment, location: location)
        let view = provider.view
        view.instance = nextInstance
        nextInstance += 1
        let kind: AttachmentEvent.Kind
        if let state = saved.removeValue(forKey: attachment.id) {
            view.restoreState(state)
            kind = .restored
        } else {
            kind = everMade.contains(attachment.id) ? .recreated : .created
        }
        everMade.insert(attachment.id)
        let entry = Entry(provider: provider, inBounds: inBounds, lastVisiblePass: pass)
        entries[attachment.id] = entry
        record(provider, kind)
        return entry
    }

    private func discard(_ id: String) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        record(entry.provider, .discarded)
    }

    private func evictOverCaps(_ surfaceBytes: [String: (instance: Int, bytes: Int)]) {
        func size(of entry: Entry) -> Int {
            let attachment = entry.provider.textAttachment
            if let drawn = surfaceBytes[attachment.id], drawn.instance == entry.view.instance { return drawn.bytes }
            return Int(attachment.size.width * attachment.size.height * 4)
        }
        let kept = entries.filter { !$0.value.inBounds }
        var count = kept.count
        var bytes = kept.values.reduce(0) { $0 + size(of: $1) }
        guard count > maximumKeptViews || bytes > maximumKeptBytes else { return }
        let candidates = kept.filter { !$0.value.view.isPinned }
            .sorted { ($0.value.lastVisiblePass, $0.key) < ($1.value.lastVisiblePass, $1.key) }
        for (id, entry) in candidates where count > maximumKeptViews || bytes > maximumKeptBytes {
            if let state = entry.view.saveState() { saved[id] = state }
            entries[id] = nil
            count -= 1
            bytes -= size(of: entry)
            record(entry.provider, .evicted)
            evicted.insert(id)
        }
    }

    // MARK: Edits and actions

    /// A paragraph was replaced (`new`) or removed (nil): its views survive only under
    /// `.onEditingInlineParagraphs`, matched by attachment id.
    func paragraphReplaced(_ old: TextParagraph, with new: [TextParagraph]) {
        let survivors = Set(new.flatMap { $0.attachments.map(\.id) })
        for attachment in old.attachments {
            guard let entry = entries[attachment.id] else { continue }
            if survivors.contains(attachment.id), policy(for: entry.provider).contains(.onEditingInlineParagraphs) {
                for paragraph in new {
                    guard let moved = paragraph.attachments.first(where: { $0.id == attachment.id }) else { continue }
                    entry.provider.location = paragraph.location(utf8: moved.utf8Offset)
                }
            } else {
                discard(attachment.id)
            }
        }
    }

    /// Applies a scripted action to attachment `id`'s view, making the view if it has none (it is
    /// then judged by the next pass like any other).
    func perform(_ action: AttachmentAction, on attachment: TextAttachment, at location: TextLocation) throws {
        if entries[attachment.id] == nil {
            make(attachment, at: location, inBounds: true)
            entries[attachment.id]!.madeByAction = true
        }
        try entries[attachment.id]!.view.perform(action)
    }

    func drainEvents() -> [AttachmentEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Records a decision, then tells the view (its lifecycle hooks).
    private func record(_ provider: TextAttachmentViewProvider, _ kind: AttachmentEvent.Kind) {
        let view = provider.view
        var state = view.visibleState
        state["instance"] = .number(Double(view.instance))
        events.append(AttachmentEvent(id: provider.textAttachment.id, provider: Swift.type(of: provider).providerName,
                                      event: kind, state: state))
        switch kind {
        case .created, .recreated, .reused: view.viewDidEnterViewport()
        case .restored: view.viewDidRestore(); view.viewDidEnterViewport()
        case .kept: view.viewDidLeaveViewport()
        case .discarded, .evicted: view.viewWillBeDiscarded()
        case .visible, .loaded: break
        }
    }
}
