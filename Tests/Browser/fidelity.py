#!/usr/bin/env python3
"""How far TextReel's blocks drift from where GitHub's stylesheet puts them in a browser (`make fidelity`).

For each Markdown document of the corpus (Fixtures/fidelity/corpus/*.md by default):
- the page GitHub shows: libcmark-gfm (GitHub's parser, through ctypes) with its extensions,
  footnotes and raw HTML kept, plus what GitHub adds after parsing where it is cheap (front matter
  as a table, alerts, :shortcodes: as emoji when python3-emoji is importable), inside GitHub's
  Markdown stylesheet (Fixtures/fidelity/github-markdown-*.css, github-markdown-css 5.9.0, MIT)
  with a README's 32 px padding; headless Chromium lays it out at WIDTH px (Tests/Browser/blocks.mjs);
- TextReel's layout of the same document at WIDTH points: `textreel preview --json` (each
  paragraph's kind, first words and fragment) and a golden case recorded in a temporary folder
  (`textreel test --update all`: each fragment's line bounds), in a 16384-point viewport, so every
  paragraph of a document up to about 24,000 points tall is measured rather than estimated;
- blocks matched in document order by their first words (letters and digits only, so emoji,
  markup and white space do not matter; a rule matches a rule, a block image an image); blocks
  with no partner are skipped.

What is compared is where a block's text starts: the top of its first line box (CSS's line box,
the font's height and the half leading above and below it, in both: blocks.mjs adds the leading to
the browser's text rects), measured from the top of the content (TextReel's first fragment's top,
its top inset; the page's padding: 32). A table row is its cells' highest first line, a rule the
middle of its bar, a block image its top. The document's height is its content's: from
TextReel's first fragment's top to its last one's bottom, over the page's height less its padding
(marked ~ when TextReel estimated some paragraphs' heights: a document over about 24,000 points).

One line per document and a summary; `--verbose DOC` (a name or path, repeatable) also prints each
matched pair, the gaps between blocks by kind of neighbour and the line pitch by kind, both sides;
`--gaps` prints those two tables over all the documents.
Exit status 0 whatever the drift (a measurement), 1 when a tool fails, 2 on bad arguments.

Usage: fidelity.py [--textreel BIN] [--chromium BIN] [--node BIN] [--width W] [--theme light|dark]
                   [--textreel-theme FILE] [--verbose DOC]… [DOC.md|DIR]…
(TEXTREEL, CHROMIUM and NODE in the environment do as the options.)
"""
import argparse
import ctypes
import ctypes.util
import html
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIDELITY = os.path.join(ROOT, "Fixtures", "fidelity")

WINDOW = 3000          # blocks compared: those starting within the first WINDOW px of content
NEAR = 8               # a block is "near" when its top is within NEAR px
TARGETS = {"near": 80.0, "median": 4.0, "last": 24.0, "height": 2.0}
PAGE_PADDING = 32
VIEWPORT = 16384       # TextReel's largest viewport side: the tallest layout in one pass


def fail(message):
    print(f"fidelity: {message}", file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------- Markdown as GitHub shows it

class GFM:
    """libcmark-gfm through ctypes, as the project links it (libcmark-gfm-dev)."""
    UNSAFE, FOOTNOTES, TABLE_PREFER_STYLE = 1 << 17, 1 << 13, 1 << 15

    def __init__(self):
        names = [ctypes.util.find_library("cmark-gfm"), "libcmark-gfm.so"]
        ext_names = [ctypes.util.find_library("cmark-gfm-extensions"), "libcmark-gfm-extensions.so"]
        self.lib = self._load(names)
        self.ext = self._load(ext_names)
        self.ext.cmark_gfm_core_extensions_ensure_registered()
        p, s, i, n = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t
        for name, res, args in (("cmark_find_syntax_extension", p, [s]), ("cmark_parser_new", p, [i]),
                                ("cmark_parser_attach_syntax_extension", i, [p, p]),
                                ("cmark_parser_feed", None, [p, s, n]), ("cmark_parser_finish", p, [p]),
                                ("cmark_parser_get_syntax_extensions", p, [p]),
                                ("cmark_render_html", p, [p, i, p]), ("cmark_node_free", None, [p]),
                                ("cmark_parser_free", None, [p])):
            f = getattr(self.lib, name)
            f.restype, f.argtypes = res, args
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.free.argtypes = [p]
        self.free = libc.free

    @staticmethod
    def _load(names):
        for name in names:
            if name:
                try:
                    return ctypes.CDLL(name)
                except OSError:
                    pass
        fail("libcmark-gfm not found (make setup installs libcmark-gfm-dev)")

    def html(self, text):
        options = self.UNSAFE | self.FOOTNOTES | self.TABLE_PREFER_STYLE
        parser = self.lib.cmark_parser_new(options)
        for name in (b"table", b"strikethrough", b"autolink", b"tagfilter", b"tasklist"):
            extension = self.lib.cmark_find_syntax_extension(name)
            if extension:
                self.lib.cmark_parser_attach_syntax_extension(parser, extension)
        data = text.encode("utf-8")
        self.lib.cmark_parser_feed(parser, data, len(data))
        document = self.lib.cmark_parser_finish(parser)
        rendered = self.lib.cmark_render_html(document, options, self.lib.cmark_parser_get_syntax_extensions(parser))
        out = ctypes.string_at(rendered).decode("utf-8", "replace")
        self.free(rendered)
        self.lib.cmark_node_free(document)
        self.lib.cmark_parser_free(parser)
        return out


def front_matter(text):
    """YAML front matter, as GitHub shows it: a table of its keys over their values."""
    m = re.match(r"---\r?\n(.*?)\r?\n---\r?\n", text, re.S)
    if not m:
        return "", text
    keys, values = [], []
    for line in m.group(1).splitlines():
        kv = re.match(r"([^\s:#][^:]*):\s*(.*)$", line)
        if kv:
            keys.append(kv.group(1).strip())
            values.append(kv.group(2).strip())
        elif line.strip().startswith("- ") and values:
            values[-1] = (values[-1] + " " + line.strip()[2:]).strip()
    head = "".join(f"<th>{html.escape(k)}</th>" for k in keys)
    body = "".join(f"<td><div>{html.escape(v)}</div></td>" for v in values)
    return f"<table><thead><tr>{head}</tr></thead><tbody><tr>{body}</tr></tbody></table>\n", text[m.end():]


ALERTS = {"NOTE": "Note", "TIP": "Tip", "IMPORTANT": "Important", "WARNING": "Warning", "CAUTION": "Caution"}


def alerts(body):
    """`> [!NOTE]` quotes in GitHub's alert markup (a title with a 16 px icon, then the text)."""
    def one(m):
        kind = m.group(1).upper()
        return (f'<div class="markdown-alert markdown-alert-{kind.lower()}"><p class="markdown-alert-title">'
                f'<svg class="octicon" width="16" height="16" viewBox="0 0 16 16"></svg>{ALERTS[kind]}</p>\n'
                + (f"<p>{m.group(2)}" if m.group(2).strip() else "<p>") + m.group(3).replace("</blockquote>", "</div>"))
    body = re.sub(r"<blockquote>\n<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*(.*?)(</p>.*?</blockquote>)", one, body, flags=re.S | re.I)
    return body.replace("<p></p>\n", "")


def shortcodes(body):
    try:
        import emoji
    except ImportError:
        return body
    parts = re.split(r"(<pre.*?</pre>|<code.*?</code>|<[^>]+>)", body, flags=re.S)
    return "".join(p if p.startswith("<") else emoji.emojize(p, language="alias") for p in parts)


def page(gfm, path, theme):
    text = open(path, encoding="utf-8", errors="replace").read()
    table, text = front_matter(text)
    body = table + shortcodes(alerts(gfm.html(text)))
    css = open(os.path.join(FIDELITY, f"github-markdown-{theme}.css"), encoding="utf-8").read()
    background = "#0d1117" if theme == "dark" else "#ffffff"
    base = "file://" + os.path.dirname(os.path.abspath(path)) + "/"
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><base href="{html.escape(base)}">\n<style>\n{css}\n'
            f"html, body {{ margin: 0; background: {background}; }}\n"
            f".markdown-body {{ box-sizing: border-box; padding: {PAGE_PADDING}px; }}\n"
            ".markdown-body li:has(> input[type=checkbox]) { list-style-type: none; }\n"
            ".markdown-body li > input[type=checkbox] { margin: 0 .2em .25em -1.4em; vertical-align: middle; }\n"
            f'</style></head><body><article class="markdown-body">\n{body}</article></body></html>\n')


# ---------------------------------------------------------------- the two layouts

def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{what} failed ({result.returncode}): {(result.stderr or result.stdout).strip().splitlines()[-1:] or ''}")
    return result.stdout


def browser_pages(args, html_paths):
    """Each page's blocks and content height, from one browser."""
    out = run([args.node, "--experimental-websocket", os.path.join(HERE, "blocks.mjs"), args.chromium, str(args.width)]
              + ["file://" + p for p in html_paths], "blocks.mjs")
    pages = out.splitlines()
    if len(pages) != len(html_paths):
        fail(f"blocks.mjs measured {len(pages)} pages of {len(html_paths)}")
    return [browser_blocks(args, json.loads(p)) for p in pages]


def browser_blocks(args, data):
    if data["width"] != args.width:
        fail(f"the page is {data['width']} px wide, not {args.width}")
    origin = data["top"] + PAGE_PADDING
    blocks = []
    for b in data["blocks"]:
        kind, lines = b["kind"], b["lines"]
        if kind == "hr":
            top = bottom = (b["top"] + b["bottom"]) / 2
        elif kind == "img" or not lines:
            top, bottom = b["top"], b["bottom"]
        else:
            top, bottom = lines[0][0], max(l[1] for l in lines)
        blocks.append({"kind": kind, "text": b["text"], "top": top - origin, "bottom": bottom - origin,
                       "lines": [(l[0] - origin, l[1] - origin) for l in lines], "depth": b["listDepth"]})
    return blocks, data["height"] - 2 * PAGE_PADDING


def textreel_layouts(args, documents, work):
    """Each document's paragraphs: kind, first words, and where its lines are."""
    suite = os.path.join(work, "suite")
    for name, path in documents:
        case = os.path.join(suite, name)
        os.makedirs(case)
        with open(os.path.join(case, "case.json5"), "w") as f:
            f.write(json.dumps({"document": os.path.relpath(os.path.abspath(path), case),
                                "viewport": {"width": args.width, "height": VIEWPORT, "scale": 1}}) + "\n")
    look = ["--theme", args.textreel_theme] if args.textreel_theme else []
    run([args.textreel, "test", suite, "--update", "all", "--quiet"] + look, "textreel test (recording the layouts)")
    layouts = {}
    for name, path in documents:
        preview = json.loads(run([args.textreel, "preview", path, "--json", "--width", str(args.width),
                                  "--height", str(VIEWPORT)] + look, f"textreel preview {path}"))
        found = sorted(os.path.join(d, "layout.json") for d, _, files in os.walk(os.path.join(suite, name, "expected"))
                       if "layout.json" in files)
        if len(found) != 1:
            fail(f"textreel test wrote {len(found)} layout.json files for {name}, expected one")
        with open(found[0]) as f:
            recorded = {g["paragraph"]: g for g in json.load(f)["frames"]["1"]["fragments"]}
        fragments = preview["fragments"]
        if not fragments:
            fail(f"textreel laid out no paragraph of {path}")
        # The content starts at the first paragraph's top (the theme's top inset) and ends at the
        # last one's bottom, when every paragraph is measured.
        origin = fragments[0]["top"]
        estimated = preview["estimatedHeight"] > 0 or fragments[-1]["paragraph"] != preview["paragraphs"] - 1
        blocks = []
        for fragment in preview["fragments"]:
            g = recorded.get(fragment["paragraph"])
            if g is None or g["y"] != fragment["top"]:
                continue
            kind, bounds = fragment["kind"], g["lineBounds"]
            if kind == "rule":
                # The bar is drawn across the middle of the rule's (empty) line.
                middle = g["y"] + (bounds[0][0] + bounds[0][1] / 2 if bounds else g["height"] / 2)
                top = bottom = middle
            elif not bounds:
                top, bottom = g["y"], g["y"] + g["height"]
            elif kind in ("table-row", "table-header"):
                top, bottom = g["y"] + min(b[0] for b in bounds), g["y"] + max(b[0] + b[1] for b in bounds)
            else:
                top, bottom = g["y"] + bounds[0][0], g["y"] + max(b[0] + b[1] for b in bounds)
            lines = [(g["y"] + b[0] - origin, g["y"] + b[0] + b[1] - origin) for b in bounds]
            text = fragment["firstWords"].rstrip("…").strip()
            blocks.append({"kind": kind, "text": text, "top": top - origin, "bottom": bottom - origin,
                           "lines": lines, "paragraph": fragment["paragraph"], "fragmentTop": fragment["top"] - origin})
        height = preview["documentHeight"] - 2 * origin if estimated else fragments[-1]["bottom"] - origin
        layouts[name] = (blocks, height, estimated)
    return layouts


# ---------------------------------------------------------------- matching

def key(text):
    """Letters and digits only (symbols such as ⓘ or emoji dropped before NFKC could make letters of them)."""
    kept = "".join(c for c in text if unicodedata.category(c)[0] in "LN")
    return "".join(c for c in unicodedata.normalize("NFKC", kept).lower() if c.isalnum())[:24]


BROWSER_PROSE = {"p", "li-p", "quote", "ul-li", "ol-li", "dt", "dd", "summary", "div"}


def compatible(t, b):
    tk, bk = t["kind"], b["kind"]
    if tk == "rule" or bk == "hr":
        return tk == "rule" and bk == "hr"
    if tk == "block-attachment" or bk == "img":
        return tk == "block-attachment" and bk == "img"
    if tk.startswith("heading"):
        return bk in ("h1", "h2", "h3", "h4", "h5", "h6")
    if tk == "code":
        return bk == "pre"
    if tk in ("table-row", "table-header"):
        return bk in ("tr", "th")
    return bk in BROWSER_PROSE


def matches(t, b):
    if not compatible(t, b):
        return False
    if t["kind"] in ("rule", "block-attachment"):
        return True
    kt, kb = t["key"], b["key"]
    if not kt or not kb:
        return False
    n = min(len(kt), len(kb))
    return kt[:n] == kb[:n] and (n >= 6 or kt == kb)


def align(tr, br):
    """The longest run of matching pairs in order (LCS), ties to the earliest pairs."""
    for b in tr + br:
        b["key"] = key(b["text"])
    n, m = len(tr), len(br)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if matches(tr[i], br[j]) else max(below[j], row[j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if matches(tr[i], br[j]) and table[i][j] == table[i + 1][j + 1] + 1:
            pairs.append((tr[i], br[j]))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


# ---------------------------------------------------------------- report

def measure(pairs, tr_height, br_height):
    window = [(t, b) for t, b in pairs if b["top"] <= WINDOW]
    drifts = [t["top"] - b["top"] for t, b in window]
    near = 100.0 * sum(abs(d) <= NEAR for d in drifts) / len(drifts) if drifts else 0.0
    median = statistics.median(abs(d) for d in drifts) if drifts else 0.0
    last = drifts[-1] if drifts else 0.0
    ratio = tr_height / br_height if br_height > 0 else 0.0
    return {"blocks": len(window), "near": near, "median": median, "last": last, "ratio": ratio}


def verdict(m):
    return {"near": m["near"] >= TARGETS["near"], "median": m["median"] <= TARGETS["median"],
            "last": abs(m["last"]) <= TARGETS["last"], "height": abs(m["ratio"] - 1) * 100 <= TARGETS["height"]}


def mark(ok):
    return " " if ok else "✗"


def label(block):
    kind = block["kind"]
    if kind in ("ul-li", "ol-li", "li-p") and block.get("depth", 0) > 1:
        return f"{kind}:{block['depth']}"
    return kind


def verbose(name, pairs, tr_height, br_height):
    print(f"\n{name}: {len(pairs)} blocks matched; y from the content's top (below TextReel's top inset and the page's 32 px padding); "
          "drift = TextReel - browser; pitch = top - previous top; gap = top - previous block's last line bottom")
    print(f"{'#':>4} {'para':>4} {'textreel':<13} {'browser':<7} {'br y':>8} {'tr y':>8} {'drift':>7}"
          f" {'pitch b/t':>11} {'gap b/t':>11} {'lines':>6}  text")
    previous = None
    for n, (t, b) in enumerate(pairs):
        drift = t["top"] - b["top"]
        if previous:
            pt, pb = previous
            pitch = f"{b['top'] - pb['top']:5.0f}/{t['top'] - pt['top']:<5.0f}"
            gap = f"{b['top'] - pb['bottom']:5.1f}/{t['top'] - pt['bottom']:<5.1f}"
        else:
            pitch = gap = ""
        lb, lt = len(b["lines"]), len(t["lines"])
        lines = "" if b["kind"] in ("hr", "img", "tr", "th", "pre") else f"{lb}/{lt}" + ("*" if lb != lt else " ")
        print(f"{n:>4} {t['paragraph']:>4} {t['kind']:<13} {label(b):<7} {b['top']:8.1f} {t['top']:8.1f} {drift:+7.1f}"
              f" {pitch:>11} {gap:>11} {lines:>6}  {b['text'][:40]}")
        previous = (t, b)
    tables([pairs])
    print(f"\n  content height: browser {br_height:.0f}, TextReel {tr_height:.0f}")


def tables(documents):
    """The gaps between neighbouring blocks by their kinds, the line pitch by kind, and the blocks
    broken into another number of lines, over the matched pairs of one document or several."""
    pairs = [pair for document in documents for pair in document]
    # Gaps between neighbours, by the kinds of both (the browser's kinds: p, li-p, ul-li, h2 …).
    gaps = {}
    for (pt, pb), (t, b) in (step for document in documents for step in zip(document, document[1:])):
        gaps.setdefault(f"{label(pb)} → {label(b)}", []).append((b["top"] - pb["bottom"], t["top"] - pt["bottom"]))
    print(f"\n  gap between blocks (median, px)      {'n':>4} {'browser':>8} {'textreel':>9} {'diff':>7}")
    for k, v in sorted(gaps.items(), key=lambda kv: -len(kv[1])):
        gb, gt = statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)
        print(f"  {k:<36} {len(v):>4} {gb:8.1f} {gt:9.1f} {gt - gb:+7.1f}")
    # Line pitch inside blocks of several lines, and the first line's height.
    pitches = {}
    for t, b in pairs:
        if len(b["lines"]) > 1 and len(t["lines"]) > 1 and b["kind"] not in ("tr", "th"):
            # The commonest distance between lines (a code block's blank lines have no box in a browser).
            pb = statistics.median_low(y - x for (x, _), (y, _) in zip(b["lines"], b["lines"][1:]))
            pt = statistics.median_low(y - x for (x, _), (y, _) in zip(t["lines"], t["lines"][1:]))
            pitches.setdefault(label(b).split(":")[0], []).append((pb, pt, b["lines"][0][1] - b["lines"][0][0], t["lines"][0][1] - t["lines"][0][0]))
    print(f"\n  line pitch and line box (median, px)  {'n':>4} {'pitch b':>8} {'pitch t':>8} {'box b':>7} {'box t':>7}")
    for k, v in sorted(pitches.items()):
        print(f"  {k:<36} {len(v):>4} {statistics.median(x[0] for x in v):8.2f} {statistics.median(x[1] for x in v):8.2f}"
              f" {statistics.median(x[2] for x in v):7.2f} {statistics.median(x[3] for x in v):7.2f}")
    broken = [(t, b) for t, b in pairs if b["kind"] not in ("hr", "img", "tr", "th", "pre") and len(b["lines"]) != len(t["lines"])]
    print(f"\n  line counts that differ (browser/TextReel): {len(broken)} of {len(pairs)}")
    for t, b in broken[:20]:
        print(f"    {len(b['lines'])}/{len(t['lines'])}  {label(b):<7} {b['text'][:60]}")


def main():
    parser = argparse.ArgumentParser(description="TextReel's block positions against GitHub's stylesheet in Chromium.")
    parser.add_argument("documents", nargs="*", help="Markdown files or folders (default: the corpus)")
    parser.add_argument("--textreel", default=os.environ.get("TEXTREEL"), help="the textreel binary (or TEXTREEL)")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--node", default=os.environ.get("NODE") or shutil.which("node"))
    parser.add_argument("--width", type=int, default=800)
    parser.add_argument("--theme", choices=("light", "dark"), default="light", help="GitHub's stylesheet (light or dark)")
    parser.add_argument("--textreel-theme", metavar="NAME|FILE", help="TextReel's --theme (a JSON5 theme file to try measures)")
    parser.add_argument("--verbose", action="append", default=[], metavar="DOC", help="print DOC's matched blocks (repeatable)")
    parser.add_argument("--gaps", action="store_true", help="print the gaps and line pitches by kind over all the documents")
    args = parser.parse_args()
    for what in ("textreel", "chromium", "node"):
        if not getattr(args, what) or not shutil.which(getattr(args, what)):
            parser.error(f"no {what} (give --{what} or set {what.upper()})")

    paths = []
    for item in args.documents or [os.path.join(FIDELITY, "corpus")]:
        if os.path.isdir(item):
            paths += sorted(os.path.join(item, f) for f in os.listdir(item) if f.endswith(".md"))
        elif os.path.isfile(item):
            paths.append(item)
        else:
            parser.error(f"{item}: no such file or folder")
    if not paths:
        parser.error("no documents")
    documents = [(os.path.splitext(os.path.basename(p))[0], p) for p in paths]
    if len({n for n, _ in documents}) != len(documents):
        parser.error("two documents with the same name")
    wanted = {os.path.splitext(os.path.basename(v))[0] for v in args.verbose}
    unknown = wanted - {n for n, _ in documents}
    if unknown:
        parser.error(f"--verbose {', '.join(sorted(unknown))}: not among the documents")

    gfm = GFM()
    work = tempfile.mkdtemp(prefix="textreel-fidelity-")
    try:
        layouts = textreel_layouts(args, documents, work)
        print(f"{'document':<28} {'blocks':>6} {'≤8px':>7} {'median':>7} {'last':>7} {'height':>7}"
              f"   (first {WINDOW} px at {args.width} px; targets ≥{TARGETS['near']:.0f}%, ≤{TARGETS['median']:.0f}, "
              f"≤{TARGETS['last']:.0f}, ±{TARGETS['height']:.0f}%; ✗ misses)")
        html_paths = []
        for name, path in documents:
            html_paths.append(os.path.join(work, name + ".html"))
            with open(html_paths[-1], "w", encoding="utf-8") as f:
                f.write(page(gfm, path, args.theme))
        browser = browser_pages(args, html_paths)
        results, details, everything = [], [], []
        for (name, path), (br, br_height) in zip(documents, browser):
            tr, tr_height, estimated = layouts[name]
            pairs = align(tr, br)
            everything.append(pairs)
            m = measure(pairs, tr_height, br_height)
            ok = verdict(m)
            results.append((m, ok))
            ratio = f"{'~' if estimated else ''}{m['ratio']:.3f}"
            print(f"{name:<28} {m['blocks']:>6} {m['near']:6.0f}%{mark(ok['near'])}{m['median']:6.1f}{mark(ok['median'])}"
                  f"{m['last']:+6.0f}{mark(ok['last'])}{ratio:>7}{mark(ok['height'])}")
            if name in wanted:
                details.append((name, pairs, tr_height, br_height))
        blocks = sum(m["blocks"] for m, _ in results)
        near = sum(m["near"] * m["blocks"] for m, _ in results) / blocks if blocks else 0.0
        passing = sum(all(ok.values()) for _, ok in results)
        print(f"{'all':<28} {blocks:>6} {near:6.0f}%  {statistics.median(m['median'] for m, _ in results):6.1f} "
              f"{statistics.median(abs(m['last']) for m, _ in results):6.0f}  {statistics.median(m['ratio'] for m, _ in results):6.3f}"
              f"   {passing} of {len(results)} documents meet all four targets (all: blocks weighted ≤8px, medians of the rest)")
        for detail in details:
            verbose(*detail)
        if args.gaps:
            print(f"\nall {len(everything)} documents:")
            tables(everything)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
