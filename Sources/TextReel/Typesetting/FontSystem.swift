import CPango
import Foundation
import Synchronization

/// One Pango font map on a private `FcConfig`, with fixed font options and resolution, and the
/// context layouts are made in. Not shared across threads (Pango font maps are not thread-safe).
final class FontSystem {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    /// The same, with a right-to-left base direction, for mirrored views.
    let rightToLeftContext: OpaquePointer
    let fontSet: FontSet

    /// The font system for `fontSet` on the calling thread, made once per thread: building one
    /// costs tens of milliseconds, and Pango font maps must not be shared between threads.
    static func forCurrentThread(_ fontSet: FontSet) -> FontSystem {
        let key = "TextReel.FontSystem." + fontSet.files.joined(separator: "|")
        let storage = Thread.current.threadDictionary
        if let existing = storage[key] as? FontSystem { return existing }
        let made = Prepared.take(key) ?? FontSystem(fontSet: fontSet)
        storage[key] = made
        return made
    }

    /// Starts making `fontSet`'s font system on a thread of its own, for the first thread that
    /// asks for that set and has none: a process that reads a document first gets its fonts
    /// set up on the other core meanwhile. One at a time; a second call while one waits does nothing.
    static func prepare(_ fontSet: FontSet) {
        let slot = Prepared(key: "TextReel.FontSystem." + fontSet.files.joined(separator: "|"))
        guard Prepared.waiting.withLock({ current in
            guard current == nil else { return false }
            current = slot
            return true
        }) else { return }
        _ = pinnedLanguages   // setenv here, not beside threads reading the environment
        Thread.detachNewThread { slot.fill(FontSystem(fontSet: fontSet)) }
    }

    /// A font system being made for whichever thread takes it. Safe by construction: `made` is
    /// written once, before `done` is signalled, and read once, by the one thread that took the
    /// slot out of `waiting`; the font map is only ever used by that thread afterwards.
    private final class Prepared: @unchecked Sendable {
        static let waiting = Mutex<Prepared?>(nil)
        let key: String
        private var made: FontSystem?
        private let done = DispatchSemaphore(value: 0)

        init(key: String) { self.key = key }

        func fill(_ system: FontSystem) {
            made = system
            done.signal()
        }

        /// The prepared system for `key`, waiting for it to be made; nil when none is, or when
        /// the caller holds the font lock (the thread making it needs that lock).
        static func take(_ key: String) -> FontSystem? {
            guard !FontLock.isHeldByCurrentThread, let slot = waiting.withLock({ current -> Prepared? in
                guard let found = current, found.key == key else { return nil }
                current = nil
                return found
            }) else { return nil }
            slot.done.wait()
            return slot.made
        }
    }

    /// Frees the calling thread's fonts under the `FontLock`: its TextReel font systems and
    /// Pango's per-thread default font map, which librsvg draws SVG text with. A thread that
    /// rendered calls it last; otherwise they are freed as the thread exits, outside the lock,
    /// while other threads may be opening faces.
    static func releaseThreadFonts() {
        FontLock.run {
            let storage = Thread.current.threadDictionary
            for key in storage.allKeys.compactMap({ $0 as? String }) where key.hasPrefix("TextReel.FontSystem.") {
                storage.removeObject(forKey: key)
            }
            pango_cairo_font_map_set_default(nil)
        }
    }

    /// The fixed font options, as the fingerprint records them.
    static let optionsDescription = "antialias=gray hintstyle=none hintmetrics=off resolution=72"

    /// 1 point = 1 user-space unit.
    static let resolution = 72.0

    /// Why the fonts are not as named (a missing file), or nil. Rendering reports it.
    let problem: TextReelError?

    /// The family Pango draws Latin text of a family list in (the first of the list the set has,
    /// or what fontconfig matches when it has none).
    func family(drawing list: String) -> String? {
        FontLock.run {
            let description = pango_font_description_new()!
            defer { pango_font_description_free(description) }
            pango_font_description_set_family(description, list)
            pango_font_description_set_size(description, 12 * PANGO_SCALE)
            guard let font = pango_font_map_load_font(fontMap, context, description) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(font)) }
            let used = pango_font_describe(font)!
            defer { pango_font_description_free(used) }
            return pango_font_description_get_family(used).map { String(cString: $0) }
        }
    }

    /// The families the set's files provide, lowercased (fontconfig compares them so).
    lazy var familyNames: Set<String> = FontLock.run {
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(fontMap, &families, &count)
        defer { g_free(families) }
        return Set((0..<Int(count)).compactMap { families?[$0].flatMap { pango_font_family_get_name($0) }.map { String(cString: $0).lowercased() } })
    }

    /// Never fails: a missing font file is recorded in `problem` (Pango would fall back silently).
    init(fontSet: FontSet = .standard) {
        (fontMap, context, rightToLeftContext, problem) = FontLock.run { Self.make(fontSet) }
        self.fontSet = fontSet
    }

    /// Pango gives each run of a script the first preferred language that writes it, from the
    /// environment (`PANGO_LANGUAGE`, else `LANGUAGE`): under `zh-tw` a Japanese line took
    /// Chinese glyph forms and failed its goldens. The list is pinned once, before Pango first
    /// reads it, so no environment changes a frame.
    private static let pinnedLanguages: Void = { setenv("PANGO_LANGUAGE", "en", 1) }()

    /// The first font map Pango makes starts a thread that loads the machine's fontconfig
    /// configuration (every file under `/etc/fonts`, the caches of every font folder), and Pango
    /// waits for it before its first font even when the font map has a configuration of its own
    /// (60 XML files parsed on the other core, for a configuration TextReel never uses). Making
    /// TextReel's own the current configuration first leaves that thread nothing to load; it
    /// also gives SVG text (librsvg draws it with Pango's default font map, which uses the
    /// current configuration) TextReel's fonts instead of whatever the machine's rules pick.
    /// It is the standard set's, loaded once and shared with every font map of that set: a
    /// configuration is not changed once loaded, and fontconfig counts its references.
    nonisolated(unsafe) private static let currentConfiguration: (config: OpaquePointer, problem: TextReelError?) = {
        let standard = configuration(for: .standard)
        FcConfigSetCurrent(standard.0)
        return standard
    }()

    private static func make(_ fontSet: FontSet) -> (UnsafeMutablePointer<PangoFontMap>, OpaquePointer, OpaquePointer, TextReelError?) {
        _ = pinnedLanguages
        let standard = currentConfiguration
        let (config, problem) = fontSet.files == FontSet.standard.files ? (FcConfigReference(standard.config)!, standard.problem) : configuration(for: fontSet)
        defer { FcConfigDestroy(config) }
        let fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)!
        pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
        pango_cairo_font_map_set_resolution(OpaquePointer(fontMap), Self.resolution)
        let context = pango_font_map_create_context(fontMap)!
        let rightToLeftContext = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        for context in [context, rightToLeftContext] {
            pango_cairo_context_set_font_options(context, options)
            pango_cairo_context_set_resolution(context, Self.resolution)
            pango_context_set_language(context, pango_language_from_string("en"))
            // Glyphs advance by the font's own widths, as in a browser: rounded to whole pixels
            // (Pango's default), a line of Noto Sans ran about 1% wider than Chromium's and broke
            // before the browser did.
            pango_context_set_round_glyph_positions(context, 0)
        }
        cairo_font_options_destroy(options)
        pango_context_set_base_dir(rightToLeftContext, PANGO_DIRECTION_RTL)
        // A layout takes its text's direction (auto-dir); one told not to is left to right
        // (Pango's default, a weak direction, would let its text decide).
        pango_context_set_base_dir(context, PANGO_DIRECTION_LTR)
        return (fontMap, context, rightToLeftContext, problem)
    }

    /// A fontconfig configuration holding exactly `fontSet`'s files (the caller destroys it).
    private static func configuration(for fontSet: FontSet) -> (OpaquePointer, TextReelError?) {
        var problem: TextReelError?
        let config = FcConfigCreate()!
        let statuses = zip(fontSet.files, FontCache.statuses(of: fontSet.files))
        let present = statuses.compactMap { file, status in status == nil ? nil : file }
        if let (file, _) = statuses.first(where: { $1 == nil }) {
            let install = FontSet.package(of: file).map { "install Debian's \($0) (apt-get install \($0)), or run `make setup`" }
                ?? "install the font packages (`make setup`)"
            problem = TextReelError("font file \(file) is missing; \(install)")
        }
        // The font files as one folder with fontconfig's own cache beside it: scanning 23 files
        // (two CJK collections of ten faces) costs tens of milliseconds per process; reading the
        // cache, a fraction of one. a changed font file gets a new folder (named by
        // the files' sizes and times). Without a writable cache folder, the files are added one by one.
        let cached = problem == nil ? FontCache.folder(for: fontSet) : nil
        let xml = cached.map { FontSet.configuration.replacingOccurrences(of: "</fontconfig>", with: "  <cachedir>\(FontCache.escape($0.cache.path))</cachedir>\n</fontconfig>") }
            ?? FontSet.configuration
        if FcConfigParseAndLoadFromMemory(config, xml, FcTrue) == 0 {
            problem = TextReelError("fontconfig rejected TextReel's font configuration")
        }
        if let cached, FcConfigAppFontAddDir(config, cached.fonts.path) != 0 {
            // Loaded from the folder (and its cache).
        } else {
            for file in present {
                if FcConfigAppFontAddFile(config, file) == 0 {
                    problem = problem ?? TextReelError("fontconfig could not load font file \(file)")
                }
            }
        }
        return (config, problem)
    }

    deinit {
        FontLock.run {
            g_object_unref(UnsafeMutableRawPointer(context))
            g_object_unref(UnsafeMutableRawPointer(rightToLeftContext))
            g_object_unref(UnsafeMutableRawPointer(fontMap))
        }
    }
}
