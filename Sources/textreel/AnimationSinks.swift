import CWebP
import Foundation
import TextReelMarkdown

/// `--animation FILE`: the frames as one animation that plays inline in pull requests and bug
/// reports, without ffmpeg: `.png` an animated PNG (TextReel's own writer), `.webp` a lossless
/// animated WebP (libwebp's `WebPAnimEncoder`). Delays follow the script's fps; a frame equal to
/// the one before lengthens it. Both are byte-identical across runs.
enum AnimationSink {
    static func make(_ url: URL, fps: Double) throws -> FrameSink {
        switch url.pathExtension.lowercased() {
        case "png", "apng": return APNGSink(url: url, fps: fps)
        case "webp": return WebPSink(url: url, fps: fps)
        default:
            throw TextReelError(file: url.path, "--animation writes .png (animated PNG) or .webp (animated WebP), not .\(url.pathExtension); for .mp4, .gif or .webm use --video")
        }
    }
}

final class APNGSink: FrameSink {
    let url: URL, fps: Double
    private var animation: AnimatedPNG?
    init(url: URL, fps: Double) { self.url = url; self.fps = fps }

    func add(_ frame: RenderedFrame, number: Int) throws -> (index: Int, url: URL)? {
        if animation == nil { animation = AnimatedPNG(width: frame.width, height: frame.height, fps: fps) }
        try animation!.add(frame)
        return nil
    }

    func finish() throws {
        guard let animation else { return }
        try AtomicFile.write(try animation.data(), to: url)
    }
}

final class WebPSink: FrameSink {
    let url: URL, fps: Double
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private var previous: [UInt8]?
    private var frames = 0
    private var size = (width: 0, height: 0)

    init(url: URL, fps: Double) { self.url = url; self.fps = fps }
    deinit { if let encoder { WebPAnimEncoderDelete(encoder) } }

    /// Milliseconds at which frame `index` (0-based) starts.
    private func timestamp(_ index: Int) -> Int32 { Int32((Double(index) * 1000 / fps).rounded()) }

    func add(_ frame: RenderedFrame, number: Int) throws -> (index: Int, url: URL)? {
        defer { frames += 1 }
        if encoder == nil {
            var options = WebPAnimEncoderOptions()
            guard textreel_webp_anim_options_init(&options) != 0, textreel_webp_config_init(&config) != 0 else {
                throw TextReelError("libwebp does not match the version TextReel was built with")
            }
            options.anim_params.loop_count = 0
            options.allow_mixed = 0
            config.lossless = 1
            config.quality = 25      // lossless: effort, not loss; low keeps 300 frames quick
            config.method = 1
            config.thread_level = 0  // one thread: the same bytes on every run
            size = (frame.width, frame.height)
            encoder = textreel_webp_anim_new(Int32(frame.width), Int32(frame.height), &options)
            guard encoder != nil else { throw TextReelError("libwebp could not start an animation of \(frame.width)×\(frame.height)") }
        }
        guard (frame.width, frame.height) == size else {
            throw TextReelError("a \(frame.width)×\(frame.height) frame in a \(size.width)×\(size.height) animation; every frame must have the animation's size")
        }
        let pixels = frame.rgbaPixels()
        // The same pixels again: the frame before simply lasts longer.
        if pixels == previous { return nil }
        previous = pixels
        var picture = WebPPicture()
        guard textreel_webp_picture_init(&picture) != 0 else { throw TextReelError("libwebp could not make a picture") }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(frame.width)
        picture.height = Int32(frame.height)
        guard WebPPictureImportRGBA(&picture, pixels, Int32(frame.width * 4)) != 0,
              WebPAnimEncoderAdd(encoder, &picture, timestamp(frames), &config) != 0 else {
            throw TextReelError(file: url.path, "libwebp could not add frame \(number): \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
        return nil
    }

    func finish() throws {
        guard let encoder else { return }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp(frames), nil) != 0, WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw TextReelError(file: url.path, "libwebp could not write the animation: \(String(cString: WebPAnimEncoderGetError(encoder)))")
        }
        try AtomicFile.write(Data(bytes: data.bytes, count: data.size), to: url)
    }
}
