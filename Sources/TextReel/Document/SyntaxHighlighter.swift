import Foundation

/// Fenced code highlighted by its info string. Candidates in Debian's packages were compared:
/// GtkSourceView 5 (about 150 languages, but a GTK 4 text buffer and its libraries at start-up),
/// tree-sitter (Debian ships no grammars), GNU source-highlight (114 languages, no Swift) and
/// Pygments (python3-pygments: over 500 lexers, Swift among them, pure functions of their input).
/// Pygments wins on coverage and determinism; it runs in one helper process per TextReel process,
/// started when the first fenced block with a language is read (about 40 ms), asked over a pipe
/// and under a lock (one request at a time, whatever the threads).
///
/// Highlighting is incremental by band: each band of a long block keeps the lexer's state stack
/// at its start, so an edit re-lexes from its band and stops at the first later band whose start
/// state is unchanged (editors' line-state technique).
final class SyntaxHighlighter: @unchecked Sendable {
    /// The attribute key of a highlighted run; its value is the class (`SyntaxClass`) as a string.
    static let classKey = "TextReel.syntax"

    static let shared = SyntaxHighlighter()

    /// What one request gives: spans by class (UTF-8 byte offsets into the text sent), the state
    /// stack at each cut reached (nil where lexing cannot resume), and the cut where an edit's
    /// re-lexing met the state it had before (nil: it ran to the end).
    struct Result: Equatable {
        var spans: [(range: Range<Int>, name: String)]
        var stacks: [[String]?]
        var synced: Int?
        static func == (a: Result, b: Result) -> Bool {
            a.spans.map(\.range) == b.spans.map(\.range) && a.spans.map(\.name) == b.spans.map(\.name) && a.stacks == b.stacks && a.synced == b.synced
        }
    }

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var buffer = Data()
    /// The helper could not start, or died: code stays plain for the rest of the process.
    private var unavailable = false
    /// The Pygments version the helper reported.
    private(set) var version: String?

    /// Debian's interpreter, not the first on PATH: the lexers (and so the colours) are the
    /// package's, whatever environment the render runs in.
    static let python = "/usr/bin/python3"

    /// Highlights `text` in `language` from the lexer state `stack` (nil: the start of a block);
    /// `cuts` are character offsets (Unicode scalars) where bands start, `expect` their state
    /// stacks before an edit. Nil when the language is unknown or Pygments is not there.
    func highlight(_ text: String, language: String, stack: [String]? = nil, cuts: [Int] = [], expect: [[String]?]? = nil) -> Result? {
        var request: [String: Any] = ["language": language.lowercased(), "text": text, "cuts": cuts]
        if let stack { request["stack"] = stack }
        if let expect { request["expect"] = expect.map { $0 as Any? ?? NSNull() } }
        guard let line = try? JSONSerialization.data(withJSONObject: request) else { return nil }
        return lock.withLock {
            guard let reply = exchange(line + Data("\n".utf8)), reply["known"] as? Bool == true else { return nil }
            let spans = (reply["spans"] as? [[Any]] ?? []).compactMap { span -> (Range<Int>, String)? in
                guard span.count == 3, let start = span[0] as? Int, let end = span[1] as? Int, let name = span[2] as? String, start < end else { return nil }
                return (start..<end, name)
            }
            let stacks = (reply["stacks"] as? [Any] ?? []).map { $0 as? [String] }
            return Result(spans: spans.map { (range: $0.0, name: $0.1) }, stacks: stacks, synced: reply["synced"] as? Int)
        }
    }

    /// One request and its reply line. Call with the lock held.
    private func exchange(_ request: Data) -> [String: Any]? {
        guard !unavailable else { return nil }
        if process == nil && !start() { unavailable = true; return nil }
        do {
            try input?.write(contentsOf: request)
            guard let line = readLine() else { throw CocoaError(.fileReadUnknown) }
            return try JSONSerialization.jsonObject(with: line) as? [String: Any]
        } catch {
            unavailable = true
            process?.terminate()
            return nil
        }
    }

    private func start() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        // Isolated (-I: no PYTHONPATH, no user site) and without site (-S): only Debian's packages.
        process.arguments = ["-I", "-S", "-c", Self.helper]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        self.process = process
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
        guard let hello = readLine(), let object = try? JSONSerialization.jsonObject(with: hello) as? [String: Any],
              let version = object["pygments"] as? String else {
            process.terminate()
            return false
        }
        self.version = version
        return true
    }

    private func readLine() -> Data? {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[(end + 1)...])
                return Data(line)
            }
            // What the pipe holds now (read(upToCount:) would wait for the whole count).
            guard let chunk = output?.availableData, !chunk.isEmpty else { return nil }
            buffer.append(chunk)
        }
    }

    /// The helper: reads a JSON request a line, answers a JSON line. Pygments' RegexLexer loop
    /// is wrapped so lexing can start from a band's state and its stack can be read at a cut.
    static let helper = #"""
import sys, json
sys.path.insert(0, '/usr/lib/python3/dist-packages')
import pygments
from pygments.lexers import get_lexer_by_name
from pygments.lexer import RegexLexer
from pygments.util import ClassNotFound
from pygments import token as T

ORDER = [(T.Comment, 'comment'), (T.String, 'string'), (T.Number, 'number'), (T.Keyword.Type, 'type'),
         (T.Keyword.Constant, 'constant'), (T.Keyword, 'keyword'), (T.Name.Builtin, 'builtin'),
         (T.Name.Function, 'function'), (T.Name.Class, 'type'), (T.Name.Decorator, 'attribute'),
         (T.Name.Attribute, 'attribute'), (T.Name.Tag, 'tag'), (T.Name.Constant, 'constant'),
         (T.Name.Variable, 'variable'), (T.Name.Label, 'constant'), (T.Name.Namespace, 'type'),
         (T.Name.Exception, 'type'), (T.Literal, 'constant'), (T.Operator.Word, 'keyword'),
         (T.Generic.Inserted, 'inserted'), (T.Generic.Deleted, 'deleted'), (T.Generic.Heading, 'heading'),
         (T.Generic.Subheading, 'heading')]
classes = {}
def classify(ttype):
    if ttype not in classes:
        classes[ttype] = next((name for parent, name in ORDER if ttype in parent), None)
    return classes[ttype]

# Lexing resumes at a band of a block from the state stack it started in: RegexLexer's loop is
# wrapped so that it starts from `_resume` and is reachable as `_inner` (subclasses that post-
# process its tokens, as Swift's does, call it by name), so its stack can be read at a line start.
_loop = RegexLexer.get_tokens_unprocessed
def _resumable(self, text, stack=('root',)):
    inner = _loop(self, text, getattr(self, '_resume', None) or stack)
    self._inner = inner
    return inner
RegexLexer.get_tokens_unprocessed = _resumable

lexers = {}
def lexer(name):
    if name not in lexers:
        try:
            lexers[name] = get_lexer_by_name(name, stripnl=False, stripall=False, ensurenl=False, tabsize=0)
        except (ClassNotFound, ValueError):
            lexers[name] = None
    return lexers[name]

def highlight(request):
    """Spans of `text` (UTF-8 byte offsets) by class, lexed from the state stack `stack`; the
    stack at each of `cuts` (character offsets where a band starts; null where a token spans
    the cut, so lexing cannot resume there). With `expect` (the stacks a cut had before an
    edit), lexing stops at the first cut whose stack is unchanged: what follows is as it was."""
    lx = lexer(request['language'])
    if lx is None:
        return {'known': False}
    # Lexers expect a final newline (a last diff line matches only with it).
    text = request['text'] + '\n'
    cuts = request.get('cuts', [])
    expect = request.get('expect')
    resumable = isinstance(lx, RegexLexer)
    lx._resume = tuple(request.get('stack') or ['root']) if resumable else None
    lx._inner = None
    tokens = iter(lx.get_tokens_unprocessed(text))
    spans, stacks = [], []
    cut = 0
    byte = 0; char = 0
    def state():
        try:
            return list(lx._inner.gi_frame.f_locals['statestack']) if resumable else None
        except Exception:
            return None
    for index, ttype, value in tokens:
        while cut < len(cuts) and cuts[cut] <= index:
            stack = state() if cuts[cut] == index else None
            if expect is not None and stack is not None and expect[cut] == stack:
                return {'known': True, 'spans': [s[:3] for s in spans], 'stacks': stacks, 'synced': cut}
            stacks.append(stack)
            cut += 1
        if index != char:
            byte += len(text[char:index].encode()); char = index
        length = len(value.encode())
        name = classify(ttype) if value.strip() else None
        if name:
            # Runs of one class with only spaces between are one span.
            if spans and spans[-1][2] == name and not text[spans[-1][3]:index].strip():
                spans[-1][1] = byte + length
            else:
                spans.append([byte, byte + length, name, index])
            spans[-1][3] = index + len(value)
        byte += length; char += len(value)
    stacks += [None] * (len(cuts) - cut)
    return {'known': True, 'spans': [s[:3] for s in spans], 'stacks': stacks, 'synced': None}

out = sys.stdout
out.write(json.dumps({'pygments': pygments.__version__}) + '\n'); out.flush()
for line in sys.stdin:
    try:
        reply = highlight(json.loads(line))
    except Exception as error:
        reply = {'known': False, 'error': str(error)}
    out.write(json.dumps(reply) + '\n'); out.flush()
"""#
}

extension SyntaxHighlighter {
    /// The language an info string names ("swift", from "swift title=x"); nil for none.
    static func language(ofInfo info: String?) -> String? {
        guard let word = info?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" || $0 == "," }).first, !word.isEmpty else { return nil }
        return word.lowercased()
    }

    /// Highlights consecutive bands of one code block, the first lexed from its `syntaxStart`.
    /// With `syncAfter` (the band edited), lexing stops at the first later band whose start state
    /// has not changed. Returns the bands lexed (a prefix of `bands`), each with its syntax runs
    /// and start state; nil when the language is unknown or there is no highlighter.
    func highlighted(_ bands: [TextParagraph], language: String, syncAfter edited: Int? = nil) -> [TextParagraph]? {
        guard !bands.isEmpty else { return [] }
        var cuts: [Int] = [], byteStarts = [0]
        var scalars = 0, bytes = 0
        for band in bands.dropLast() {
            scalars += band.text.unicodeScalars.count + 1
            bytes += band.text.utf8.count + 1
            cuts.append(scalars)
            byteStarts.append(bytes)
        }
        let text = bands.map(\.text).joined(separator: "\n")
        guard let result = highlight(text, language: language, stack: bands[0].syntaxStart, cuts: cuts,
                                     expect: edited.map { edited in bands.indices.dropFirst().map { $0 > edited ? bands[$0].syntaxStart : nil } }) else { return nil }
        let count = result.synced.map { $0 + 1 } ?? bands.count
        var next = 0
        return (0..<count).map { k in
            let lower = byteStarts[k], upper = lower + bands[k].text.utf8.count
            var runs: [AttributeRun] = []
            while next < result.spans.count && result.spans[next].range.upperBound <= lower { next += 1 }
            var j = next
            while j < result.spans.count && result.spans[j].range.lowerBound < upper {
                let span = result.spans[j]
                let range = max(span.range.lowerBound, lower) - lower..<min(span.range.upperBound, upper) - lower
                if !range.isEmpty { runs.append(AttributeRun(range: range, attributes: [Self.classKey: .string(span.name)])) }
                j += 1
            }
            let kept = bands[k].attributes.filter { $0.attributes[Self.classKey] == nil }
            var band = bands[k].replacing(text: bands[k].text, runs: bands[k].runs, attachments: bands[k].attachments, attributes: kept + runs)
            band.syntaxStart = k == 0 ? bands[0].syntaxStart : k - 1 < result.stacks.count ? result.stacks[k - 1] : nil
            return band
        }
    }
}
