import CHTTP
import COptionalLibraries
import Foundation
import TextReelMarkdown
import TextReelGolden

/// `textreel report --serve`: the HTML report of a run, served on 127.0.0.1 with accept buttons.
/// The HTTP side is libmicrohttpd's; every request that writes must carry the random token in
/// the URL this prints.
enum ReportCommand {
    static let help = """
    Usage: textreel report --serve <report folder> [<suite folder> ...] [--port N]

    Serves the report `textreel test --report DIR` wrote (it reads DIR/results.json) on
    127.0.0.1 only, with an accept button per failing frame and per case, a filter, and "accept
    all shown". Accepting writes goldens the atomic way --update does. The URL it prints holds a
    random token; requests that write without it are refused, and so is every request whose Host
    is not 127.0.0.1 and the port it serves (a page elsewhere that rebinds its name to the
    loopback address cannot read the report). Ctrl-C stops it.

    Accepting writes only into the suite folders named after the report folder (default: the
    current folder): a report is an artifact, downloaded from CI perhaps, and nothing in it
    chooses where goldens are written. Each case is found by its folder and name inside them.

    Options:
      --port N   the port (default: one the system chooses)

    Example:
      textreel test Fixtures/golden --report Output/report; textreel report --serve Output/report
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .report)
        if args.flags.contains("help") { print(help); return 0 }
        guard args.flags.contains("serve") else { throw Arguments.UsageError(message: "report needs --serve (reports themselves are written by textreel test --report)") }
        guard !args.positional.isEmpty else { throw Arguments.UsageError(message: "report --serve takes a report folder, then the suite folders accepting may write into") }
        let folder = URL(fileURLWithPath: args.positional[0])
        let resultsFile = folder.appendingPathComponent("results.json")
        guard FileManager.default.fileExists(atPath: resultsFile.path) else {
            throw TextReelError(file: resultsFile.path, "no results here; write a report with textreel test --report \(folder.path) first")
        }
        let port = try args.values["port"].map { text -> UInt16 in
            guard let port = UInt16(text) else { throw Arguments.UsageError(message: "--port expects a number from 0 to 65535, got '\(text)'") }
            return port
        } ?? 0
        let merged = try Reports.merge(blobs: [resultsFile])
        // The suites accepting may write into are the person's, never the report's.
        let suites = args.positional.count > 1 ? Array(args.positional.dropFirst()) : [FileManager.default.currentDirectoryPath]
        for suite in suites where FileStatus(path: suite)?.kind != .directory {
            throw TextReelError(file: suite, "no such suite folder; name the suite folders accepting may write into after the report folder")
        }
        let scope = GoldenWriteScope(suites: suites)
        let server = ReportServer(results: merged.results, scope: scope, folder: folder)
        let bound = try server.start(port: port)
        print("serving the report on http://127.0.0.1:\(bound)/?token=\(server.token)")
        print("(accepting writes only goldens of \(scope.roots.joined(separator: ", ")))")
        print("(loopback only; Ctrl-C stops it)")
        fflush(nil)
        Interruption.install()
        while (try? Interruption.check("")) != nil { usleep(100_000) }
        server.stop()
        return 0
    }
}

/// The server: `/` is the page, `POST /accept?token=…&case=…[&frame=…]` accepts.
final class ReportServer: @unchecked Sendable {
    private(set) var results: [CaseResult]
    /// Where accepting may write: the report's results.json is not trusted for that.
    let scope: GoldenWriteScope
    /// Random, from the system's generator: it only guards writes, it never reaches a frame.
    let token: String = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    private var daemon: OpaquePointer?
    private let lock = NSLock()
    /// The report folder: its `images/` are served as they are.
    let folder: URL
    /// The port bound, for the Host check.
    private(set) var port: UInt16 = 0

    init(results: [CaseResult], scope: GoldenWriteScope, folder: URL) {
        self.results = results
        self.scope = scope
        self.folder = folder
    }

    func start(port: UInt16) throws -> UInt16 {
        if let problem = textreel_optional_library_problem(1) { throw TextReelError("report --serve: " + String(cString: problem)) }
        var bound: UInt16 = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        daemon = textreel_http_start(port, { context, connection, url, method, _, _, uploadSize, state -> MHD_Result in
            let server = Unmanaged<ReportServer>.fromOpaque(context!).takeUnretainedValue()
            // A POST calls twice: first to set up (answered later), then with the (empty) body done.
            if String(cString: method!) == "POST", state!.pointee == nil {
                state!.pointee = UnsafeMutableRawPointer(bitPattern: 1)
                return textreel_http_continue()
            }
            uploadSize?.pointee = 0
            func value(_ key: String) -> String? { textreel_http_query(connection, key).map { String(cString: $0) } }
            let host = textreel_http_header(connection, "Host").map { String(cString: $0) }
            let (status, type, bytes) = server.respond(method: String(cString: method!), path: String(cString: url!), host: host, value: value)
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { textreel_http_reply(connection, UInt32(status), type, $0.baseAddress, $0.count) }
            }
        }, context, &bound)
        guard daemon != nil else { throw TextReelError("cannot listen on 127.0.0.1:\(port); the port may be in use, try another --port") }
        lock.withLock { self.port = bound }
        return bound
    }

    func stop() {
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }

    /// The answer to one request: the Host check, the report's images, then the page and accepts.
    func respond(method: String, path: String, host: String?, value: (String) -> String?) -> (Int, String, [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        // DNS rebinding: a page on another site that points its name at 127.0.0.1 sends its own
        // name as Host. Only the address and port served here are answered.
        guard host == "127.0.0.1:\(port)" else {
            return (421, "text/plain", Array("refused: this report answers only to Host 127.0.0.1:\(port); open http://127.0.0.1:\(port)/".utf8))
        }
        if method == "GET", path.hasPrefix("/images/") {
            let name = String(path.dropFirst("/images/".count))
            // One file name of the report's own images: nothing outside the folder.
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), name.hasSuffix(".png") || name.hasSuffix(".svg"),
                  let data = FileManager.default.contents(atPath: folder.appendingPathComponent("images").appendingPathComponent(name).path) else {
                return (404, "text/plain", Array("not found".utf8))
            }
            return (200, name.hasSuffix(".svg") ? "image/svg+xml" : "image/png", [UInt8](data))
        }
        let (status, type, text) = page(method: method, path: path, value: value)
        return (status, type, Array(text.utf8))
    }

    private func page(method: String, path: String, value: (String) -> String?) -> (Int, String, String) {
        switch (method, path) {
        case ("GET", "/"):
            // The page's accept buttons carry the token only when the page was asked for with it.
            let token = value("token") == self.token ? self.token : nil
            return (200, "text/html; charset=utf-8", Reports.page(results, acceptToken: token))
        case ("POST", "/accept"):
            guard value("token") == token else { return (403, "text/plain", "refused: the token is missing or wrong") }
            // A case is its folder and its name: two suites may each have a case called `demo`.
            guard let name = value("case"), let folder = value("folder"),
                  let index = results.firstIndex(where: { $0.name == name && $0.folder == folder }) else {
                return (404, "text/plain", "no such case (a case is named by case= and folder=)")
            }
            let result = results[index]
            do {
                if let frameText = value("frame") {
                    guard let frame = Int(frameText), let diff = result.diffs.first(where: { $0.frame == frame }), diff.actual != nil else {
                        return (404, "text/plain", "no such failing frame in \(name)")
                    }
                    try GoldenEdit.accept(frame: diff, of: result, scope: scope)
                    // The page shown after a reload says so.
                    results[index].diffs.removeAll { $0.frame == frame }
                    if results[index].diffs.isEmpty && results[index].structure.isEmpty { results[index].status = .updated }
                    return (200, "text/plain", "accepted frame \(frame) of \(name)")
                }
                try GoldenEdit.accept(case: result, scope: scope)
                results[index].status = .updated
                results[index].diffs = []
                results[index].structure = []
                return (200, "text/plain", "accepted case \(name)")
            } catch let refusal as GoldenWriteScope.Refusal {
                Terminal.error("textreel: \(name): \(refusal)")
                return (403, "text/plain", "\(refusal)")
            } catch {
                return (500, "text/plain", "could not accept: \(error)")
            }
        case ("GET", _), ("POST", _):
            return (404, "text/plain", "not found")
        default:
            return (405, "text/plain", "method not allowed")
        }
    }
}
