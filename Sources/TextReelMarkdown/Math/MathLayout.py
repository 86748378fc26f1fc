"""TeX math laid out as one outline for TextReel's helper process: mathtext's glyphs (matplotlib,
imported on the first formula, about 0.25 s), and the environments mathtext lacks laid out here
as TeX does. Embedded at build time with the helper's other parts.
"""

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
    # The outline glyph by glyph, as TextToPath.get_text_path joins them (then the rules), so
    # that a coloured group's glyphs can be told apart (`glyphs`: each one's id and its ops).
    info, shapes, rules = to_path.get_glyphs_mathtext(prop, tex)
    scale = size / to_path.FONT_SCALE   # the outline comes at FONT_SCALE points
    ops, glyphs = [], []
    for glyph, x, y, glyph_scale in info:
        vertices, codes = shapes[glyph]
        start = len(ops)
        ops += math_ops(vertices * glyph_scale + [x, y], codes, scale)
        glyphs.append((glyph, start, len(ops)))
    for vertices, codes in rules:
        ops += math_ops(vertices, codes, scale)
    box = MathBox(width, height - depth, depth, ops)
    box.glyphs = glyphs
    return box

def math_ops(vertices, codes, scale):
    """A path's (vertices, codes) as (command, points) ops, scaled."""
    ops, k = [], 0
    letters = {1: 'M', 2: 'L', 3: 'Q', 4: 'C', 79: 'Z'}
    while k < len(codes):
        code = int(codes[k])
        count = {1: 1, 2: 1, 3: 2, 4: 3, 79: 1}.get(code, 1)
        points = [] if code == 79 else [(x * scale, y * scale) for x, y in vertices[k:k + count]]
        ops.append((letters.get(code, 'L'), points))
        k += count
    return ops

class MathBox:
    """A typeset piece: its width, height above the baseline and depth below it, and its outline
    as (command, points) in points, from the left end of the baseline, y up."""
    def __init__(self, width, height, depth, ops):
        self.width, self.height, self.depth, self.ops = width, height, depth, ops
        self.glyphs = None   # mathtext's own boxes only: (glyph id, first op, end op) each

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


def math(request):
    """TeX math as one path in points (origin at the box's left end of the baseline, y up), with
    the box's width, height above the baseline and depth below it."""
    plain, colours = math_colours(request['math'])
    tex, display, size = mathjax_idioms(plain), request.get('display', False), request['size']
    # A display formula's lines (`\\` outside any environment) are centred one under another, as
    # MathJax breaks them.
    if display and len(math_split(tex, '\\')) > 1: tex = '\\begin{gathered}' + tex + '\\end{gathered}'
    box = math_typeset(tex, size, display)
    tints = math_tints(box, colours, size, display)
    def path(ops):
        out = []
        for command, points in ops:
            out.append(command)
            out += ['%.2f %.2f' % point for point in points]
        return ' '.join(out)
    plain_ops = [op for k, op in enumerate(box.ops) if k not in tints]
    reply = {'ok': True, 'width': box.width, 'height': box.height, 'depth': box.depth, 'path': path(plain_ops)}
    if tints:
        by_colour = {}
        for k in sorted(tints): by_colour.setdefault(tints[k], []).append(box.ops[k])
        reply['colored'] = [{'rgb': list(rgb), 'path': path(ops)} for rgb, ops in by_colour.items()]
    return reply

def math_tints(box, colours, size, display):
    """{op index: rgb} for the glyphs of each coloured group: the group typeset alone gives its
    glyphs in order, found in the formula's from where the last group's ended. A group not found
    so (inside an environment mathtext does not lay out, or reordered by a fraction) keeps the
    text's colour: a colour only tints, never moves anything."""
    if not colours or box.glyphs is None: return {}
    ids = [glyph for glyph, _, _ in box.glyphs]
    tints, at = {}, 0
    for rgb, piece in colours:
        alone = math_typeset(mathjax_idioms(piece), size, display) if piece.strip() else None
        wanted = [glyph for glyph, _, _ in (alone.glyphs or [])] if alone else []
        if not wanted: continue
        found = next((k for k in range(at, len(ids) - len(wanted) + 1) if ids[k:k + len(wanted)] == wanted), None)
        if found is None: continue
        for _, start, end in box.glyphs[found:found + len(wanted)]:
            for k in range(start, end): tints[k] = rgb
        at = found + len(wanted)
    return tints
