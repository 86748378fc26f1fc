"""MathJax's spellings (GitHub's math engine) rewritten into what matplotlib's mathtext reads:
macros, unbraced arguments, infix fractions, `\text` with math inside, tags. Embedded at build
time with the helper's other parts.
"""
import re

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
    # MathJax reads `x_ {ij}` as `x_{ij}`; a colour only tints (`math_colours`), and
    # `{n \choose k}` is \binom.
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

# Colours MathJax names (CSS's basic names and the dvips names people write), as 0–255 RGB.
math_named_colours = {
    'black': (0, 0, 0), 'white': (255, 255, 255), 'red': (255, 0, 0), 'green': (0, 128, 0), 'blue': (0, 0, 255),
    'cyan': (0, 255, 255), 'magenta': (255, 0, 255), 'yellow': (255, 255, 0), 'orange': (255, 165, 0),
    'purple': (128, 0, 128), 'violet': (238, 130, 238), 'brown': (165, 42, 42), 'gray': (128, 128, 128),
    'grey': (128, 128, 128), 'darkgray': (169, 169, 169), 'lightgray': (211, 211, 211), 'pink': (255, 192, 203),
    'lime': (0, 255, 0), 'olive': (128, 128, 0), 'teal': (0, 128, 128), 'navy': (0, 0, 128), 'maroon': (128, 0, 0),
    'aqua': (0, 255, 255), 'fuchsia': (255, 0, 255), 'silver': (192, 192, 192), 'gold': (255, 215, 0),
    'darkred': (139, 0, 0), 'darkgreen': (0, 100, 0), 'darkblue': (0, 0, 139), 'darkorange': (255, 140, 0),
    'forestgreen': (34, 139, 34), 'royalblue': (65, 105, 225), 'skyblue': (135, 206, 235), 'crimson': (220, 20, 60),
    'salmon': (250, 128, 114), 'tomato': (255, 99, 71), 'indigo': (75, 0, 130), 'turquoise': (64, 224, 208),
    'orchid': (218, 112, 214), 'plum': (221, 160, 221), 'tan': (210, 180, 140), 'coral': (255, 127, 80),
    'goldenrod': (218, 165, 32), 'seagreen': (46, 139, 87), 'limegreen': (50, 205, 50), 'steelblue': (70, 130, 180),
    'cornflowerblue': (100, 149, 237), 'dodgerblue': (30, 144, 255), 'deepskyblue': (0, 191, 255),
    'redorange': (255, 83, 73), 'bittersweet': (192, 79, 21), 'mahogany': (192, 64, 0), 'bluegreen': (0, 179, 184),
    'emerald': (0, 169, 157), 'junglegreen': (0, 169, 154), 'periwinkle': (123, 144, 210), 'cerulean': (0, 162, 227),
}

def math_colour(name):
    """An RGB triple for a colour as MathJax writes one: a name, `#rgb` or `#rrggbb`; None else."""
    name = name.strip()
    hex_digits = name[1:] if name.startswith('#') else None
    if hex_digits and re.fullmatch(r'[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}', hex_digits):
        if len(hex_digits) == 3: hex_digits = ''.join(c * 2 for c in hex_digits)
        return tuple(int(hex_digits[k:k + 2], 16) for k in (0, 2, 4))
    return math_named_colours.get(name.lower())

def math_colours(tex):
    """`tex` without its colour commands, and the groups they colour as (rgb, TeX), in order:
    `\\color{c}{x}` and `\\textcolor{c}{x}` colour x; `\\color{c}` alone colours the rest of the
    group it stands in, as MathJax 3 reads it. An unknown colour is the text's."""
    out, groups, k = [], [], 0
    for m in re.finditer(r'\\(text)?color\s*\{([^{}]*)\}', tex):
        if m.start() < k: continue
        out.append(tex[k:m.start()])
        rgb, rest = math_colour(m.group(2)), m.end()
        j = rest
        while j < len(tex) and tex[j].isspace(): j += 1
        if j < len(tex) and tex[j] == '{':
            end = math_group_end(tex, j)
            piece = tex[j + 1:end - 1] if end else tex[j + 1:]
            k = m.end() if end is None else j
        else:
            # The switch: to the end of the enclosing group.
            depth, end = 0, len(tex)
            for i in range(j, len(tex)):
                if tex[i] == '{' and tex[i - 1] != '\\': depth += 1
                elif tex[i] == '}' and tex[i - 1] != '\\':
                    if depth == 0: end = i; break
                    depth -= 1
            piece = tex[j:end]
            k = j
        if rgb: groups.append((rgb, piece))
    out.append(tex[k:])
    return ''.join(out), groups
