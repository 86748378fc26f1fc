import CChafa
import Foundation
import TextReelMarkdown

/// Draws a frame in the terminal with libchafa: Unicode symbols in true colour by default, or
/// sixel or kitty graphics. The command line's, not the library's: the library does not link
/// libchafa.
enum TerminalImage {
    enum Mode: String, Sendable, CaseIterable {
        case symbols, sixels, kitty
    }

    /// What to say when `mode` was asked for but the terminal does not say it shows it (drawn
    /// anyway: the escape codes may go to a file or a terminal that does): nil when it does.
    static func warning(asking mode: Mode) -> String? {
        guard mode != .symbols else { return nil }
        let detected = detectMode()
        if mode == detected || (mode == .sixels && detected == .kitty) { return nil }
        let term = ProcessInfo.processInfo.environment["TERM"] ?? "unset"
        return "textreel: warning: --image=\(mode.rawValue): this terminal (TERM=\(term)) does not say it shows \(mode.rawValue); "
            + "the image is written anyway, and may show as nothing or as escape codes (symbols works everywhere)"
    }

    /// The best mode the terminal (from the environment) supports.
    static func detectMode() -> Mode {
        let info = termInfo()
        defer { chafa_term_info_unref(info) }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1) != 0 { return .kitty }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS) != 0 { return .sixels }
        return .symbols
    }

    private static func termInfo() -> OpaquePointer {
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var pointers = environment.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            chafa_term_db_detect(chafa_term_db_get_default(), UnsafeMutablePointer(OpaquePointer(buffer.baseAddress!)))
        }
    }

    /// The frame as terminal output, `columns` × `rows` character cells at most (aspect kept).
    static func render(_ frame: RenderedFrame, columns: Int, rows: Int, mode: Mode) -> String {
        render(rgba: frame.rgbaPixels(), width: frame.width, height: frame.height, columns: columns, rows: rows, mode: mode)
    }

    /// Straight RGBA pixels as terminal output, `columns` × `rows` cells at most (aspect kept).
    static func render(rgba: [UInt8], width: Int, height: Int, columns: Int, rows: Int, mode: Mode) -> String {
        // Character cells are about twice as tall as wide.
        var cols = Int32(max(columns, 1)), lines = Int32(max(rows, 1))
        let aspect = Double(height) / Double(width)
        if Double(cols) * aspect / 2 > Double(lines) { cols = Int32(Double(lines) * 2 / aspect) } else { lines = Int32(max(Double(cols) * aspect / 2, 1)) }

        let symbols = chafa_symbol_map_new()
        chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_ALL)
        let config = chafa_canvas_config_new()
        chafa_canvas_config_set_geometry(config, max(cols, 1), max(lines, 1))
        chafa_canvas_config_set_symbol_map(config, symbols)
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        let pixelMode = switch mode {
        case .symbols: CHAFA_PIXEL_MODE_SYMBOLS
        case .sixels: CHAFA_PIXEL_MODE_SIXELS
        case .kitty: CHAFA_PIXEL_MODE_KITTY
        }
        chafa_canvas_config_set_pixel_mode(config, pixelMode)
        if mode != .symbols { chafa_canvas_config_set_cell_geometry(config, 10, 20) }
        let canvas = chafa_canvas_new(config)
        defer {
            chafa_canvas_unref(canvas)
            chafa_canvas_config_unref(config)
            chafa_symbol_map_unref(symbols)
        }
        rgba.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(width), Int32(height), Int32(width * 4))
        }
        let info = mode == .symbols ? chafa_term_db_get_fallback_info(chafa_term_db_get_default())! : termInfo()
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else { return "" }
        defer { g_string_free(printed, 1) }
        return String(cString: printed.pointee.str) + "\u{1B}[0m"
    }
}
