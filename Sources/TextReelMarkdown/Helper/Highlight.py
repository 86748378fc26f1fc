"""Fenced code's syntax classes for TextReel's helper process, from Pygments (python3-pygments);
the helper works without it. Embedded at build time with the helper's other parts.
"""
import sys, re
# Run as python3 -I -S: Debian's packages are on the path only when put there.
sys.path.insert(0, '/usr/lib/python3/dist-packages')

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
    # Pygments offers no public way to read that stack (only to start from one), so the loop's
    # `statestack` is read from its generator's frame; if a version renames it, no stack is known, and every
    # band is lexed from its block's start through the public API: slower, never wrong.
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
