import Foundation

/// One Python process per TextReel process for what only Python libraries in Debian's packages do
/// well: Pygments' lexers (`SyntaxHighlighter`) and matplotlib's TeX math (`MathTypesetter`).
/// Started on the first request; asked a JSON line, it answers one, one request at a time under
/// a lock, whatever the threads. Debian's interpreter, isolated (-I: no PYTHONPATH, no user
/// site; -S: no site), so the libraries (and so the pixels) are the packages', whatever the
/// environment the render runs in.
final class PythonHelper: @unchecked Sendable {
    static let shared = PythonHelper()

    static let python = "/usr/bin/python3"

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var buffer = Data()
    /// The helper could not start, or died: code stays plain for the rest of the process.
    private var unavailable = false
    /// The reply to `request`; nil when the helper cannot start or died (then for good).
    func exchange(_ request: [String: Any]) -> [String: Any]? {
        guard let line = try? JSONSerialization.data(withJSONObject: request) else { return nil }
        return lock.withLock { exchange(line + Data("\n".utf8)) }
    }

    /// One request and its reply line. Call with the lock held.
    private func exchange(_ request: Data) -> [String: Any]? {
        guard !unavailable else { return nil }
        if process == nil && !start() { unavailable = true; return nil }
        do {
            // Written again after a signal interrupts it (FileHandle gives up: a timer's signal in
            // the middle of a request left code plain for the rest of the process).
            guard let input, AtomicFile.writeAll(request, to: input.fileDescriptor) == nil else { throw CocoaError(.fileWriteUnknown) }
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
        // The helper's first line names its Pygments: it started, with its libraries.
        guard let hello = readLine(), let object = try? JSONSerialization.jsonObject(with: hello) as? [String: Any],
              object["pygments"] is String else {
            process.terminate()
            return false
        }
        return true
    }

    private func readLine() -> Data? {
        var searched = 0
        while true {
            // Only the bytes not looked at yet: a reply of a megabyte comes in many pieces.
            if let end = buffer[(buffer.startIndex + searched)...].firstIndex(of: 0x0A) {
                let line = Data(buffer[buffer.startIndex..<end])
                buffer = Data(buffer[(end + 1)...])
                return line
            }
            searched = buffer.count
            // What the pipe holds now (read(upToCount:) would wait for the whole count).
            guard let output, let chunk = Self.read(from: output.fileDescriptor) else { return nil }
            buffer.append(chunk)
        }
    }

    /// What the pipe holds now, at least a byte; nil at its end or on an error. A read a signal
    /// interrupts is read again (FileHandle's `availableData` stops the process on it).
    private static func read(from fd: Int32) -> Data? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            return n > 0 ? Data(chunk[..<n]) : nil
        }
    }

    /// The helper: reads a JSON request a line, answers a JSON line. Pygments' RegexLexer loop
    /// is wrapped so lexing can start from a band's state and its stack can be read at a cut;
    /// matplotlib is imported on the first math request (about 0.25 s).
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
                return {'known': True, 'spans': packed(spans), 'stacks': stacks, 'synced': cut}
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
    return {'known': True, 'spans': packed(spans), 'stacks': stacks, 'synced': None}

def packed(spans):
    # "start end class start end class …" in one string: a block's tens of thousands of spans
    # as JSON arrays cost seconds to read back into Swift.
    return ' '.join('%d %d %s' % (s[0], s[1], s[2]) for s in spans)

# TeX that MathJax (GitHub's engine) reads and mathtext lacks, as mathtext writes it.
math_macros = {'le': r'\leq', 'ge': r'\geq', 'lt': '<', 'gt': '>', 'lVert': r'\Vert', 'rVert': r'\Vert',
               'lvert': '|', 'rvert': '|', 'land': r'\wedge', 'lor': r'\vee', 'lnot': r'\neg',
               'iff': r'\Leftrightarrow', 'implies': r'\Rightarrow', 'gets': r'\leftarrow',
               'setminus': r'\backslash', 'boldsymbol': r'\mathbf', 'tfrac': r'\frac', 'bmod': r'\ \mathrm{mod}\ ',
               'displaystyle': '', 'textstyle': '', 'big': '', 'Big': '', 'bigg': '', 'Bigg': '',
               'bigl': '', 'bigr': '', 'Bigl': '', 'Bigr': '', 'biggl': '', 'biggr': '', 'Biggl': '', 'Biggr': ''}
def math_source(tex, display):
    import re
    def words(command):
        return lambda m: command + '{' + m.group(1).replace(' ', r'\ ') + '}'
    if display:
        # A display formula's own fractions are full size (TeX's display style); those inside
        # them, or in scripts, stay small.
        out, depth, k = [], 0, 0
        while k < len(tex):
            token = re.match(r'\\[A-Za-z]+|\\.|.', tex[k:], re.S).group(0)
            k += len(token)
            if token == '{': depth += 1
            elif token == '}': depth -= 1
            elif token == r'\frac' and depth == 0: token = r'\dfrac'
            out.append(token)
        tex = ''.join(out)
    tex = re.sub(r'\\(?:text|textrm|textnormal|textup|mbox)\s*\{([^{}]*)\}', words(r'\mathrm'), tex)
    tex = re.sub(r'\\textbf\s*\{([^{}]*)\}', words(r'\mathbf'), tex)
    tex = re.sub(r'\\textit\s*\{([^{}]*)\}', words(r'\mathit'), tex)
    tex = re.sub(r'\\pmod\s*\{([^{}]*)\}', lambda m: r'\ (\mathrm{mod}\ ' + m.group(1) + ')', tex)
    tex = tex.replace(r'\operatorname*', r'\operatorname')
    tex = re.sub(r'\\([A-Za-z]+)', lambda m: math_macros.get(m.group(1), m.group(0)), tex)
    return tex

math_tools = None
def math(request):
    """TeX math as one path in points (origin at the box's left end of the baseline, y up), with
    the box's width, height above the baseline and depth below it."""
    global math_tools
    if math_tools is None:
        import matplotlib
        matplotlib.rcParams['mathtext.fontset'] = 'cm'
        from matplotlib.textpath import TextToPath
        from matplotlib.font_manager import FontProperties
        from matplotlib.mathtext import MathTextParser
        math_tools = (TextToPath(), MathTextParser('path'), FontProperties)
    to_path, parser, properties = math_tools
    tex = '$' + math_source(request['math'], request.get('display', False)) + '$'
    prop = properties(size=request['size'])
    width, height, depth, _, _ = parser.parse(tex, dpi=72, prop=prop)
    vertices, codes = to_path.get_text_path(prop, tex, ismath=True)
    scale = request['size'] / to_path.FONT_SCALE   # the outline comes at FONT_SCALE points
    path, k = [], 0
    letters = {1: 'M', 2: 'L', 3: 'Q', 4: 'C', 79: 'Z'}
    while k < len(codes):
        code = int(codes[k])
        count = {1: 1, 2: 1, 3: 2, 4: 3, 79: 1}.get(code, 1)
        path.append(letters.get(code, 'L'))
        if code != 79:
            for x, y in vertices[k:k + count]:
                path.append('%.2f %.2f' % (x * scale, y * scale))
        k += count
    return {'ok': True, 'width': width, 'height': height - depth, 'depth': depth, 'path': ' '.join(path)}

out = sys.stdout
out.write(json.dumps({'pygments': pygments.__version__}) + '\n'); out.flush()
for line in sys.stdin:
    try:
        request = json.loads(line)
        reply = math(request) if 'math' in request else highlight(request)
    except Exception as error:
        reply = {'known': False, 'ok': False, 'error': str(error).strip().split('\n')[-1]}
    out.write(json.dumps(reply) + '\n'); out.flush()
"""#
}
