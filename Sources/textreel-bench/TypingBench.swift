import Foundation
import TextReelMarkdown

/// Typing one character a frame into a paragraph in the middle of the document, writing PNGs;
/// then the caret moving a character a frame, and a selection growing by one, without PNGs:
/// what the editing layer costs when no fragment changes.
enum TypingBench {
    static func run(paragraphs count: Int, in folder: URL) throws -> [String: Double] {
        let view = TextView(document: TextDocument.generated(paragraphs: count), viewportSize: viewport)
        let middle = count / 2
        let text = String(repeating: "typed words ", count: 25)
        func frames(_ steps: String, writing: Bool) throws -> (fps: Double, p50: Double, shaped: Double, draws: Double) {
            let folder = folder.appendingPathComponent("typing")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let writer = FrameWriter(parallel: true)
            var times: [Double] = [], shaped = 0, draws = 0, frames = 0
            var last = DispatchTime.now().uptimeNanoseconds
            let seconds = try Measure.seconds {
                try ScriptRunner(view: view, script: try ScrollScript(data: Data("{fps: 60, steps: [\(steps)]}".utf8))).run { number, frame, event in
                    if writing, let frame { try writer.write(frame, to: folder.appendingPathComponent(String(format: "frame-%05d.png", number))) }
                    let now = DispatchTime.now().uptimeNanoseconds
                    if number > 1 { times.append(Double(now - last) / 1e6); shaped += event.laidOut.count; draws += event.surfaceDraws }
                    frames += 1
                    last = DispatchTime.now().uptimeNanoseconds
                }
                try writer.finish()
            }
            let n = Double(max(times.count, 1))
            return (Double(frames) / seconds, Measure.median(times), Double(shaped) / n, Double(draws) / n)
        }
        let typed = try frames("{select: {paragraph: \(middle), from: 0}}, {type: {text: \"\(text)\", rate: 60}}", writing: true)
        let step = "{wait: 0.0167}"
        let caret = try frames(Array(repeating: "{move: {direction: \"left\", destination: \"character\"}}, \(step)", count: 299).joined(separator: ", "), writing: false)
        let growing = try frames(Array(repeating: "{move: {direction: \"right\", destination: \"character\", extending: true}}, \(step)", count: 299).joined(separator: ", "), writing: false)
        // The peer: frames that scroll a point, drawn from cached surfaces, with no selection.
        view.selectedTextRange = nil
        let still = try frames(Array(repeating: "{scroll: {by: 1}}, \(step), {scroll: {by: -1}}, \(step)", count: 150).joined(separator: ", "), writing: false)
        return ["fps": typed.fps, "p50": typed.p50, "shapedPerFrame": typed.shaped, "drawsPerFrame": typed.draws,
                "caretP50": caret.p50, "caretDraws": caret.draws, "selectionP50": growing.p50, "selectionDraws": growing.draws,
                "stillP50": still.p50]
    }
}
