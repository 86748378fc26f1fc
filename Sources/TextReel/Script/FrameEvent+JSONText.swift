/// `events.jsonl`'s line, written by `JSONText`: the bytes `JSONEncoder` with `.sortedKeys`
/// writes for the same event (a test holds the two together), several times faster.
extension FrameEvent: JSONTextWritable {
    /// The event as one line of `events.jsonl`, without its newline; throws for a number that
    /// is NaN or infinite, as the encoder does.
    public func jsonLine() throws -> [UInt8] {
        var json = JSONText()
        write(to: &json)
        guard !json.hasNonFinite else { throw TextReelError("frame \(frame): a number in its event is not finite (NaN or infinity); events.jsonl cannot hold it") }
        return json.bytes
    }

    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("attachmentDraws", attachmentDraws)
            json.field("attachmentHits", attachmentHits)
            json.field("attachments", attachments)
            json.field("checks", checks)
            json.field("correction", correction)
            json.field("edits", edits)
            json.field("fragments", fragments)
            json.field("frame", frame)
            json.field("laidOut", laidOut)
            json.field("pass", pass)
            json.field("scale", scale)
            json.field("selection", ifPresent: selection)
            json.field("snapshots", snapshots)
            json.field("surfaceDraws", surfaceDraws)
            json.field("surfaceHits", surfaceHits)
            json.field("time", time)
            json.field("viewport", viewport)
            json.field("viewportBounds", viewportBounds)
        }
    }
}

extension FrameEvent.Edit: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("index", index)
            json.field("kind", kind)
            json.field("paragraph", ifPresent: paragraph)
        }
    }
}

extension LayoutRect: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("height", height)
            json.field("width", width)
            json.field("x", x)
            json.field("y", y)
        }
    }
}

extension LayoutPass.Fragment: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("clipped", ifPresent: clipped)
            json.field("frame", frame)
            json.field("index", index)
            json.field("paragraph", paragraph)
            json.field("state", state.rawValue)
        }
    }
}

extension LayoutPass.Selection: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("affinity", affinity)
            json.field("caret", ifPresent: caret)
            json.field("end", end)
            json.field("highlight", highlight)
            json.field("marked", ifPresent: marked)
            json.field("start", start)
        }
    }
}

extension PassChecks: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("caretHidden", caretHidden)
            json.field("created", created)
            json.field("discarded", discarded)
            json.field("errors", errors)
            json.field("estimateError", estimateError)
            json.field("flicker", flicker)
            json.field("jump", jump)
            json.field("recreated", recreated)
        }
    }
}

extension AttachmentEvent: JSONTextWritable {
    package func write(to json: inout JSONText) {
        json.object { json in
            json.field("event", event.rawValue)
            json.field("id", id)
            json.field("provider", provider)
            json.field("state", state)
        }
    }
}

extension StateValue: JSONTextWritable {
    package func write(to json: inout JSONText) {
        switch self {
        case .number(let value): json.number(value)
        case .bool(let value): json.bool(value)
        case .string(let value): json.string(value)
        }
    }
}
