"""TextReel's helper process: reads a JSON request a line on stdin, answers a JSON line on stdout.

Pygments' RegexLexer loop is wrapped so lexing can start from a band's state and its stack can
be read at a cut; matplotlib is imported on the first math request (about 0.25 s). Embedded into
the library at build time (Package.swift's embedInCode) and run by Debian's python3 -I -S.
"""
import sys, json, re, os, select, threading
sys.path.insert(0, '/usr/lib/python3/dist-packages')

def _watch(parent):
    """Ends this process when `parent` (the TextReel process that started it) ends, however it
    ends: a pidfd becomes readable when the process exits (no polling); where there is none,
    the parent id is checked every tenth of a second."""
    try:
        fd = os.pidfd_open(parent)
        select.select([fd], [], [])
    except (AttributeError, OSError):
        import time
        while os.getppid() == parent:
            time.sleep(0.1)
    stop_diagrams()
    os._exit(0)

if len(sys.argv) > 1:
    _parent = int(sys.argv[1])
    if os.getppid() != _parent:
        os._exit(0)    # it ended before the watch began
    threading.Thread(target=_watch, args=(_parent,), daemon=True).start()

# Highlighting needs Pygments, math needs matplotlib: each works without the other.
try:
    import pygments
    from pygments.lexers import get_lexer_by_name
    from pygments.lexer import RegexLexer
    from pygments.util import ClassNotFound
    from pygments import token as T
except ImportError:
    pygments = None

if pygments:
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
    lx = lexer(request['language']) if pygments else None
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
               'boxed': '', 'dbinom': r'\binom', 'tbinom': r'\binom',
               'displaystyle': '', 'textstyle': '', 'big': '', 'Big': '', 'bigg': '', 'Bigg': '',
               'bigl': '', 'bigr': '', 'Bigl': '', 'Bigr': '', 'biggl': '', 'biggr': '', 'Biggl': '', 'Biggr': ''}
# One TeX token: a command, an escaped character, or any other character.
math_token = re.compile(r'\\[A-Za-z]+|\\.|.', re.S)

# Commands whose arguments MathJax also reads unbraced (`\frac ab`, `\mathcal O`), by how many.
math_arguments = {'frac': 2, 'dfrac': 2, 'tfrac': 2, 'binom': 2, 'dbinom': 2, 'tbinom': 2, 'sqrt': 1,
                  'mathcal': 1, 'mathbb': 1, 'mathrm': 1, 'mathbf': 1, 'mathit': 1, 'mathsf': 1, 'mathtt': 1,
                  'mathfrak': 1, 'mathscr': 1, 'boldsymbol': 1, 'overline': 1, 'pmod': 1}
def braced_arguments(tex):
    """`tex` with every argument of `math_arguments`' commands in braces, as mathtext needs them."""
    def argument(k):
        while k < len(tex) and tex[k] == ' ': k += 1
        if k >= len(tex) or tex[k] in '[}': return None, k    # \sqrt[3]{…}: as written
        if tex[k] != '{':
            m = math_token.match(tex, k)
            return '{' + braced_arguments(m.group(0)) + '}', m.end()
        depth, j = 0, k
        while j < len(tex):
            if tex[j] == '\\': j += 2; continue
            depth += {'{': 1, '}': -1}.get(tex[j], 0)
            j += 1
            if depth == 0: return '{' + braced_arguments(tex[k + 1:j - 1]) + '}', j
        return None, k
    out, k = [], 0
    while k < len(tex):
        m = math_token.match(tex, k)
        out.append(m.group(0)); k = m.end()
        count = math_arguments.get(m.group(0)[1:]) if m.group(0).startswith('\\') else None
        j, arguments = k, []
        for _ in range(count or 0):
            a, j = argument(j)
            if a is None: break
            arguments.append(a)
        if count and len(arguments) == count:
            out += arguments; k = j
    return ''.join(out)

def plain_delimiters(tex):
    """`\\left[ x \\right]` around nothing tall as plain `[ x ]`: mathtext sizes such delimiters to
    their content alone, smaller than the text's (MathJax never sets them below it)."""
    tall = ('\\frac', '\\dfrac', '\\tfrac', '\\sum', '\\int', '\\prod', '\\binom', '\\sqrt', '\\begin', '\\over', '^')
    tokens = [m.group(0) for m in math_token.finditer(tex)]
    opened = []
    for k, t in enumerate(tokens):
        if t == '\\left': opened.append(k)
        elif t == '\\right' and opened:
            start = opened.pop()
            inner = tokens[start + 2:k]
            if not any(i.startswith(tall) for i in inner) and k + 1 < len(tokens):
                for at in (start, k):
                    tokens[at] = ''
                    if tokens[at + 1] == '.': tokens[at + 1] = ''
    return ''.join(tokens)

def unlabelled_braces(tex):
    """`\\overbrace{…}` and `\\underbrace{…}` the labelled rewrite left (no label, or groups inside):
    an overbrace's content under a line, an underbrace's as it is (mathtext draws no braces)."""
    out, k = [], 0
    for m in re.finditer(r'\\(under|over)brace\s*(?=\{)', tex):
        if m.start() < k: continue
        end = math_group_end(tex, m.end())
        if end is None: continue
        body = tex[m.end() + 1:end - 1]
        out.append(tex[k:m.start()] + (r'\overline{' + body + '}' if m.group(1) == 'over' else '{' + body + '}'))
        k = end
    return ''.join(out) + tex[k:]

def math_source(tex, display):
    import re
    tex = plain_delimiters(braced_arguments(tex))
    # MathJax reads `x_ {ij}` as `x_{ij}`; a colour only tints, and `{n \choose k}` is \binom.
    tex = re.sub(r'([_^])\s+', r'\1', tex)
    tex = re.sub(r'\\(?:text)?color\s*\{[^{}]*\}', '', tex)
    tex = re.sub(r'\{([^{}]*)\\choose([^{}]*)\}', lambda m: r'\binom{' + m.group(1).strip() + '}{' + m.group(2).strip() + '}', tex)
    # Braces mathtext lacks: a line over, a label set above or below.
    tex = re.sub(r'\\overbrace\s*\{([^{}]*)\}\s*\^\s*\{([^{}]*)\}', lambda m: r'\overset{' + m.group(2) + r'}{\overline{' + m.group(1) + '}}', tex)
    tex = re.sub(r'\\underbrace\s*\{([^{}]*)\}\s*_\s*\{([^{}]*)\}', lambda m: r'\underset{' + m.group(2) + '}{' + m.group(1) + '}', tex)
    tex = unlabelled_braces(tex)
    # Text quotes are two marks; a line break inside an inline formula is a space.
    tex = tex.replace('"', "''")
    if not display: tex = tex.replace('\\\\', r'\ ')
    def words(command):
        return lambda m: command + '{' + m.group(1).replace(' ', r'\ ') + '}'
    if display:
        # A display formula's own fractions are full size (TeX's display style); those inside
        # them, or in scripts, stay small.
        out, depth, k = [], 0, 0
        while k < len(tex):
            token = math_token.match(tex, k).group(0)
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
def math_glyphs(tex, size, display):
    """mathtext's outline of `tex` (no environment in it) as a MathBox."""
    global math_tools
    if math_tools is None:
        import matplotlib
        matplotlib.rcParams['mathtext.fontset'] = 'cm'
        from matplotlib.textpath import TextToPath
        from matplotlib.font_manager import FontProperties
        from matplotlib.mathtext import MathTextParser
        math_tools = (TextToPath(), MathTextParser('path'), FontProperties)
    to_path, parser, properties = math_tools
    tex = '$' + math_source(tex, display) + '$'
    prop = properties(size=size)
    width, height, depth, _, _ = parser.parse(tex, dpi=72, prop=prop)
    vertices, codes = to_path.get_text_path(prop, tex, ismath=True)
    scale = size / to_path.FONT_SCALE   # the outline comes at FONT_SCALE points
    ops, k = [], 0
    letters = {1: 'M', 2: 'L', 3: 'Q', 4: 'C', 79: 'Z'}
    while k < len(codes):
        code = int(codes[k])
        count = {1: 1, 2: 1, 3: 2, 4: 3, 79: 1}.get(code, 1)
        points = [] if code == 79 else [(x * scale, y * scale) for x, y in vertices[k:k + count]]
        ops.append((letters.get(code, 'L'), points))
        k += count
    return MathBox(width, height - depth, depth, ops)

class MathBox:
    """A typeset piece: its width, height above the baseline and depth below it, and its outline
    as (command, points) in points, from the left end of the baseline, y up."""
    def __init__(self, width, height, depth, ops):
        self.width, self.height, self.depth, self.ops = width, height, depth, ops

    def placed(self, dx, dy, sx=1.0, sy=1.0):
        return [(c, [(x * sx + dx, y * sy + dy) for x, y in points]) for c, points in self.ops]

    def ink(self):
        points = [p for _, ps in self.ops for p in ps]
        return (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points), max(y for _, y in points))

def math_row(pieces, size):
    """Boxes side by side on one baseline."""
    ops, x = [], 0.0
    for box, gap in pieces:
        x += gap
        ops += box.placed(x, 0)
        x += box.width
    return MathBox(x, max([b.height for b, _ in pieces] + [0]), max([b.depth for b, _ in pieces] + [0]), ops)

def math_split(body, separator):
    """`body` cut at `separator` (`&` or `\\`) outside braces and inner environments."""
    parts, depth, start, k = [], 0, 0, 0
    while k < len(body):
        c = body[k]
        if c == '\\':
            if separator == '\\' and body.startswith('\\\\', k) and depth == 0:
                parts.append(body[start:k])
                k += 2
                spacing = re.match(r'\s*\[[^\]]*\]', body[k:])   # \\[2pt]
                k += spacing.end() if spacing else 0
                start = k
                continue
            word = re.match(r'\\(begin|end)\b', body[k:])
            if word: depth += 1 if word.group(1) == 'begin' else -1
            k += 2
            continue
        if c == '{': depth += 1
        elif c == '}': depth -= 1
        elif c == '&' and separator == '&' and depth == 0:
            parts.append(body[start:k])
            start = k + 1
        k += 1
    return parts + [body[start:]]

# Environments mathtext lacks, laid out here as TeX does: cells typeset one by one in a grid
# centred on the math axis, between delimiters drawn from mathtext's own glyphs, stretched.
math_delimiters = {'pmatrix': ('(', ')'), 'bmatrix': ('[', ']'), 'Bmatrix': (r'\{', r'\}'), 'vmatrix': ('|', '|'),
                   'Vmatrix': (r'\Vert', r'\Vert'), 'cases': (r'\{', None), 'dcases': (r'\{', None), 'rcases': (None, r'\}')}
math_environments = {'matrix', 'smallmatrix', 'array', 'cases', 'dcases', 'rcases', 'gathered', 'gather', 'gather*',
                     'equation', 'equation*'} | set(math_delimiters)
math_aligned = ('aligned', 'align', 'align*', 'alignat', 'alignat*', 'alignedat', 'split', 'eqnarray', 'eqnarray*', 'flalign', 'flalign*')
math_environments |= set(math_aligned)

def math_delimiter(glyph, size, bottom, top):
    box = math_glyphs(glyph, size, False)
    x0, y0, x1, y1 = box.ink()
    sy = max(1.0, (top - bottom) / (y1 - y0))
    sx = sy ** 0.4   # a taller paren bows out a little further, as TeX's larger sizes do
    ops = [(c, [((x - x0) * sx, (y - y0) * sy + bottom) for x, y in ps]) for c, ps in box.ops]
    return MathBox((x1 - x0) * sx, top, -bottom, ops)

def math_environment(name, body, size, display, delimiters):
    em = size * 0.7 if name == 'smallmatrix' else size
    columns, between = None, set()   # an array's column alignments, and where its `|` rules are
    if name in ('array', 'alignat', 'alignat*', 'alignedat'):
        spec = re.match(r'\s*\{([^{}]*)\}', body)
        if spec:
            body = body[spec.end():]
            if name == 'array':
                columns = re.sub(r'[^lcr]', '', spec.group(1))
                for k, c in enumerate(re.sub(r'[^lcr|]', '', spec.group(1))):
                    if c == '|': between.add(k - len(between))
    rows, across = [], set()   # the rows' cells, and above which rows an \hline is
    for text in math_split(body, '\\'):
        while True:
            hline = re.match(r'\s*\\hline', text)
            if not hline: break
            across.add(len(rows))
            text = text[hline.end():]
        rows.append(math_split(text, '&'))
    if rows and not ''.join(rows[-1]).strip(): rows.pop()   # a \\ after the last row
    if not rows: return MathBox(0, 0, 0, [])
    style = display and (name in math_aligned or name.startswith('gather'))
    cells = [[math_typeset(math_spaced(cell.strip()), em, style) for cell in row] for row in rows]
    count = max(len(row) for row in cells)
    widths = [max(row[j].width for row in cells if j < len(row)) for j in range(count)]
    def align(j):
        if columns: return columns[j] if j < len(columns) else 'c'
        if name in math_aligned: return 'r' if j % 2 == 0 else 'l'
        if name.endswith('cases'): return 'l'
        return 'c'
    def gap(j):   # before column j
        if j == 0: return 0
        if name in math_aligned: return 0 if j % 2 == 1 else 1.5 * em
        return 1.0 * em if name.endswith('cases') else 0.8 * em
    xs, x = [], 0.5 * em if 0 in between else 0.0
    for j in range(count):
        x += gap(j)
        xs.append(x)
        x += widths[j]
    grid_width = x + (0.5 * em if count in between else 0)
    # TeX's strut: each row at least 0.84 em high and 0.36 em deep, a little more when aligned.
    extra = 0.25 * em if name in math_aligned or name.startswith('gather') else 0
    heights = [max([c.height for c in row] + [0.84 * em]) for row in cells]
    depths = [max([c.depth for c in row] + [0.36 * em]) + extra for row in cells]
    depths[-1] -= extra
    total = sum(heights) + sum(depths)
    axis = 0.25 * size   # the surrounding text's math axis
    top = axis + total / 2
    left, right = delimiters if delimiters else math_delimiters.get(name, (None, None))
    pieces, ops = [], []
    x = 0.0
    if left and left != '.':
        mark = math_delimiter(left, size, top - total - 0.1 * em, top + 0.1 * em)
        ops += mark.placed(0, 0)
        x = mark.width + 0.2 * em
    def rule(x0, y0, x1, y1):
        return [('M', [(x0, y0)]), ('L', [(x1, y0)]), ('L', [(x1, y1)]), ('L', [(x0, y1)]), ('Z', [])]
    thin = 0.04 * em
    edges = [top - sum(heights[:i]) - sum(depths[:i]) for i in range(len(cells) + 1)]   # above each row, and below
    for k in between:
        at = x + (0.25 * em if k == 0 else grid_width - 0.25 * em if k == count else xs[k] - gap(k) / 2)
        ops += rule(at - thin / 2, top - total, at + thin / 2, top)
    start, end = x + (0.25 * em if 0 in between else 0), x + grid_width - (0.25 * em if count in between else 0)
    for i in across:
        ops += rule(start, edges[i] - thin / 2, end, edges[i] + thin / 2)
    y = top
    for i, row in enumerate(cells):
        y -= heights[i]
        for j, cell in enumerate(row):
            a = align(j)
            shift = 0 if a == 'l' else widths[j] - cell.width if a == 'r' else (widths[j] - cell.width) / 2
            ops += cell.placed(x + xs[j] + shift, y)
        y -= depths[i]
    x += grid_width
    if right and right != '.':
        x += 0.2 * em
        mark = math_delimiter(right, size, top - total - 0.1 * em, top + 0.1 * em)
        ops += mark.placed(x, 0)
        x += mark.width
    return MathBox(x, top + 0.1 * em, total - top + 0.1 * em, ops)

def math_typeset(tex, size, display):
    """`tex` as a MathBox: mathtext's where it has no environment, else laid out around it."""
    begin = re.search(r'\\begin\s*\{([A-Za-z]+\*?)\}', tex)
    if not begin:
        return math_glyphs(tex, size, display) if tex.strip() else MathBox(0, 0, 0, [])
    name, depth = begin.group(1), 0
    for mark in re.finditer(r'\\(begin|end)\s*\{([A-Za-z]+\*?)\}', tex[begin.start():]):
        depth += 1 if mark.group(1) == 'begin' else -1
        if depth == 0: break
    if depth != 0 or mark.group(2) != name:
        raise ValueError('\\begin{%s} without its \\end{%s}' % (name, name))
    if name not in math_environments:
        raise ValueError('\\begin{%s} is not one of the environments drawn here' % name)
    before, body, after = tex[:begin.start()], tex[begin.end():begin.start() + mark.start()], tex[begin.start() + mark.end():]
    delimiters = None
    opened = re.search(r'\\left\s*(\\[A-Za-z]+|\\.|[^\s\\])\s*$', before)
    closed = re.match(r'\s*\\right\s*(\\[A-Za-z]+|\\.|[^\s\\])', after)
    if opened and closed:
        before, after = before[:opened.start()], after[closed.end():]
        delimiters = (opened.group(1), closed.group(1))
    pieces = []
    if before.strip():
        pieces.append((math_typeset(math_spaced(before), size, display), 0))
    pieces.append((math_environment(name, body, size, display, delimiters), 0.17 * size if before.strip() else 0))
    if after.strip():
        pieces.append((math_typeset(math_spaced(after), size, display), 0.17 * size))
    return math_row(pieces, size)

math_relation = r'(?:=|<|>|\\[lg]eq?|\\neq|\\approx|\\equiv|\\sim|\\to|\\[Rr]ightarrow|\\mapsto|\\in)'
def math_spaced(tex):
    """`tex` with an empty operand beside a relation at either end, so that mathtext spaces it
    as TeX does beside what follows it in the formula (a cell, a matrix)."""
    if re.match(r'\s*' + math_relation, tex): tex = '{}' + tex
    if re.search(math_relation + r'\s*$', tex): tex = tex + '{}'
    return tex

def math_group_end(tex, k):
    """The index just past the brace group opening at `k` (`tex[k] == '{'`), or None."""
    depth = 0
    while k < len(tex):
        if tex[k] == '\\': k += 2; continue
        if tex[k] == '{': depth += 1
        elif tex[k] == '}':
            depth -= 1
            if depth == 0: return k + 1
        k += 1
    return None

def math_infix(tex):
    """TeX's infix fractions as mathtext's: `{a \\over b}` is `\\frac{a}{b}`, `\\atop` a fraction
    without a bar, `\\above<dim>` a fraction; in each group (and the whole formula) holding one."""
    def rewrite(body):
        tokens = [m for m in math_token.finditer(body)]
        depth = 0
        for m in tokens:
            t = m.group(0)
            if t == '{': depth += 1
            elif t == '}': depth -= 1
            elif depth == 0 and t in ('\\over', '\\atop', '\\above'):
                left, right = body[:m.start()], body[m.end():]
                if t == '\\above':
                    right = re.sub(r'^\s*-?[0-9.]+\s*[a-z]{2}', '', right)
                if t == '\\atop':
                    return '\\genfrac{}{}{0}{}{' + rewrite(left).strip() + '}{' + rewrite(right).strip() + '}'
                return '\\frac{' + rewrite(left).strip() + '}{' + rewrite(right).strip() + '}'
        # Groups inside, innermost first.
        out, k = [], 0
        while k < len(body):
            if body[k] == '\\':
                m = math_token.match(body, k)
                out.append(m.group(0)); k = m.end(); continue
            if body[k] == '{':
                end = math_group_end(body, k)
                if end is None: out.append(body[k:]); break
                out.append('{' + rewrite(body[k + 1:end - 1]) + '}'); k = end; continue
            out.append(body[k]); k += 1
        return ''.join(out)
    return rewrite(tex)

def math_text_with_math(tex):
    """`\\text{if $x > 0$}`: the words as text, the formula inside as math."""
    def split(m):
        parts = re.split(r'\$([^$]*)\$', m.group(2))
        out = []
        for i, part in enumerate(parts):
            if i % 2: out.append(part)
            elif part: out.append(m.group(1) + '{' + part + '}')
        return ''.join(out)
    return re.sub(r'(\\text|\\textrm|\\mbox)\s*\{([^{}]*\$[^{}]*)\}', split, tex)

def mathjax_idioms(tex):
    """What GitHub's MathJax reads and mathtext lacks, in mathtext's terms."""
    tex = tex.replace('\\newline', '\\\\')
    tex = math_text_with_math(tex)
    # \mathop{\text{argmin}} is an operator's name; \limits and \nolimits place limits, which
    # mathtext places as it does; \* (TeX's discretionary times) is a star; \left< is an angle.
    tex = re.sub(r'\\mathop\s*\{\s*\\(?:text|textrm|mathrm|operatorname)\s*\{([^{}]*)\}\s*\}', r'\\operatorname{\1}', tex)
    tex = re.sub(r'\\mathop\s*\{([A-Za-z]+)\}', r'\\operatorname{\1}', tex)
    tex = re.sub(r'\\(?:mathop|limits|nolimits)(?![A-Za-z])', '', tex)
    tex = re.sub(r'\\math(?:rel|bin|ord|open|close|punct)\s*(?=\{)', '', tex)   # spacing classes: their content
    tex = re.sub(r'(?<!\\)\\\*', '*', tex)
    tex = re.sub(r'\\left\s*<', r'\\left\\langle ', tex)
    tex = re.sub(r'\\right\s*>', r'\\right\\rangle ', tex)
    # \tag{n}: the number at the right; \cancel{x}: x (mathtext cannot strike).
    tags = re.findall(r'\\tag\*?\s*\{([^{}]*)\}', tex)
    tex = re.sub(r'\\tag\*?\s*\{[^{}]*\}', '', tex)
    tex = re.sub(r'\\[bx]?cancel(?:to\s*\{[^{}]*\})?\s*', '', tex)
    # Labelled arrows: the label over (and under) the arrow.
    def arrow(m):
        under = m.group(2)
        label = m.group(3)
        symbol = '\\longrightarrow' if m.group(1) == 'right' else '\\longleftarrow'
        over = '\\overset{' + label + '}{' + symbol + '}'
        return '\\underset{' + under + '}{' + over + '}' if under else over
    tex = re.sub(r'\\x(right|left)arrow\s*(?:\[([^\]]*)\])?\s*\{([^{}]*)\}', arrow, tex)
    tex = math_infix(tex)
    if tags: tex += '\\qquad (' + tags[-1] + ')'
    return tex

def math(request):
    """TeX math as one path in points (origin at the box's left end of the baseline, y up), with
    the box's width, height above the baseline and depth below it."""
    tex, display = mathjax_idioms(request['math']), request.get('display', False)
    # A display formula's lines (`\\` outside any environment) are centred one under another, as
    # MathJax breaks them.
    if display and len(math_split(tex, '\\')) > 1: tex = '\\begin{gathered}' + tex + '\\end{gathered}'
    box = math_typeset(tex, request['size'], display)
    path = []
    for command, points in box.ops:
        path.append(command)
        path += ['%.2f %.2f' % point for point in points]
    return {'ok': True, 'width': box.width, 'height': box.height, 'depth': box.depth, 'path': ' '.join(path)}

out = sys.stdout
out.write(json.dumps({'pygments': pygments.__version__ if pygments else None}) + '\n'); out.flush()
for line in sys.stdin:
    try:
        request = json.loads(line)
        reply = math(request) if 'math' in request else diagram(request) if 'diagram' in request else highlight(request)
    except Exception as error:
        reply = {'known': False, 'ok': False, 'error': str(error).strip().split('\n')[-1]}
    out.write(json.dumps(reply) + '\n'); out.flush()
stop_diagrams()
