import CMark
import Foundation
import TextReel

/// The one way into cmark-gfm's parser, safe from any thread by construction.
///
/// cmark-gfm 0.29 keeps process-wide state: registering the core extensions appends to a global
/// list behind a plain flag, and every parse with syntax extensions sets and then clears entries
/// of the global special-character tables of `inlines.c` (`~`, `|`, the autolink triggers) inside
/// `cmark_parser_finish`. A parse that finishes while another is reading inlines makes the other
/// read `~~struck~~` as text, or trips an assertion in `blocks.c`. So registration happens once
/// (a Swift `static let` is initialised exactly once, whatever thread asks first) and feeding and
/// finishing hold one process-wide lock. Walking the finished tree needs no lock: it is the
/// caller's own.
enum CMarkParser {
    /// The extensions every document is read with, in the order they are attached.
    static let extensionNames = ["table", "strikethrough", "tasklist", "autolink"]

    /// Written once, before any parse, then only read: safe to share.
    nonisolated(unsafe) private static let extensions: [OpaquePointer] = {
        cmark_gfm_core_extensions_ensure_registered()
        return extensionNames.compactMap { cmark_find_syntax_extension($0) }
    }()

    private static let lock = NSLock()

    /// Parses `bytes` and hands the document's root to `body`; the tree is freed afterwards.
    /// Nil when cmark-gfm could not make a parser or a document (out of memory).
    static func withDocument<T>(_ bytes: UnsafeRawBufferPointer, _ body: (OpaquePointer) throws -> T) rethrows -> T? {
        let extensions = Self.extensions
        let root = lock.withLock { () -> OpaquePointer? in
            guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT | CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES) else { return nil }
            defer { cmark_parser_free(parser) }
            for ext in extensions { cmark_parser_attach_syntax_extension(parser, ext) }
            if let base = bytes.baseAddress { cmark_parser_feed(parser, base.assumingMemoryBound(to: CChar.self), bytes.count) }
            return cmark_parser_finish(parser)
        }
        guard let root else { return nil }
        defer { cmark_node_free(root) }
        return try body(root)
    }
}
