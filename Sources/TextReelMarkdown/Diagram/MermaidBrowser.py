"""Mermaid diagrams for TextReel's helper process: mermaid.js itself (the pinned file `make setup`
fetches) run in Debian's headless chromium, started on the first diagram and kept warm for the
rest of the render, driven over its DevTools pipe (fd 3 and 4, NUL-separated JSON; no port, no
package beyond the standard library). Prepended to the helper's source at build time.
"""
import ctypes, json, os, re, shutil, subprocess, tempfile, time, urllib.parse

class MermaidBrowser:
    """One chromium page holding mermaid.js; `render` answers an SVG or mermaid's own error."""
    CHROMIUM = '/usr/bin/chromium'

    def __init__(self, script):
        self.script = script
        self.folder = tempfile.mkdtemp(prefix='textreel-diagrams-')
        page = os.path.join(self.folder, 'page.html')
        with open(page, 'w') as f:
            # A fixed id and a fixed column: the same source gives the same bytes whatever was
            # drawn before it (a counted id named the order diagrams were shown in).
            f.write('<!doctype html><html><head><meta charset="utf-8"><script src="file://%s"></script></head>'
                    '<body style="margin:0;width:800px"><div id="column"></div><script>'
                    'window.renderOne = async (src, cfg) => {'
                    '  mermaid.initialize(Object.assign({startOnLoad: false}, cfg));'
                    '  try { const {svg} = await mermaid.render("diagram", src, document.getElementById("column")); return {svg}; }'
                    '  catch (e) { for (const n of document.querySelectorAll("#ddiagram, #diagram")) n.remove();'
                    '              return {error: String((e && e.message) || e)}; }'
                    '};'
                    'window.ready = typeof mermaid !== "undefined";'
                    '</script></body></html>' % urllib.parse.quote(script))
        to_browser, from_us = os.pipe()
        to_us, from_browser = os.pipe()
        libc = ctypes.CDLL(None, use_errno=True)
        def child():
            # The browser ends with this helper, however it ends (PR_SET_PDEATHSIG, SIGKILL), and
            # its renderers with it (a group of its own, killed whole).
            os.setpgid(0, 0)
            libc.prctl(1, 9)
            a, b = os.dup(to_browser), os.dup(from_browser)
            os.dup2(a, 3); os.dup2(b, 4)
        arguments = [self.CHROMIUM, '--headless=new', '--disable-gpu', '--remote-debugging-pipe',
                     '--user-data-dir=' + os.path.join(self.folder, 'profile'), '--no-first-run',
                     '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
                     '--disable-component-update', '--disable-sync', '--mute-audio', '--force-device-scale-factor=1',
                     '--disable-crash-reporter', '--disable-breakpad',
                     '--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>', 'about:blank']
        # Chromium's sandbox refuses to start as root; the page loads only mermaid.js and runs
        # it with securityLevel 'strict', behind a proxy that reaches nothing.
        if os.geteuid() == 0: arguments.insert(1, '--no-sandbox')
        self.process = subprocess.Popen(arguments, preexec_fn=child, pass_fds=(3, 4), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={'HOME': self.folder, 'PATH': '/usr/bin:/bin', 'LANG': 'C.UTF-8', 'TZ': 'UTC'})
        os.close(to_browser); os.close(from_browser)
        self.writer = os.fdopen(from_us, 'wb', buffering=0)
        self.reader = os.fdopen(to_us, 'rb', buffering=0)
        self.buffer, self.count, self.session = b'', 0, None
        try:
            self.open(page, script)
        except BaseException:
            self.stop()
            raise

    def open(self, page, script):
        target = self.call('Target.createTarget', url='file://' + page)['targetId']
        self.session = self.call('Target.attachToTarget', targetId=target, flatten=True)['sessionId']
        # mermaid.js is 3.5 MB of script: its page is ready within a second (the time only
        # bounds the wait; the diagram is the same whenever it is ready).
        deadline = time.monotonic() + 20
        while not self.evaluate('window.ready === true'):
            if self.evaluate('window.ready === false'):
                raise RuntimeError('mermaid.js did not load from ' + script)
            if time.monotonic() > deadline: raise RuntimeError('chromium did not load mermaid.js within 20 s')
            time.sleep(0.02)

    def receive(self):
        while b'\0' not in self.buffer:
            chunk = self.reader.read(1 << 20)
            if not chunk: raise RuntimeError('chromium ended')
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(message)

    def call(self, method, **params):
        self.count += 1
        message = {'id': self.count, 'method': method, 'params': params}
        if self.session: message['sessionId'] = self.session
        self.writer.write(json.dumps(message).encode() + b'\0')
        while True:
            reply = self.receive()
            if reply.get('id') == self.count:
                if 'error' in reply: raise RuntimeError(reply['error'].get('message', 'DevTools error'))
                return reply['result']

    def evaluate(self, expression):
        result = self.call('Runtime.evaluate', expression=expression, awaitPromise=True, returnByValue=True)
        if 'exceptionDetails' in result: raise RuntimeError(result['exceptionDetails'].get('text', 'script error'))
        return result['result'].get('value')

    def render(self, source, theme):
        # GitHub's look: mermaid's default theme in light pages, its dark one in dark pages. Labels
        # as SVG text, not HTML (librsvg draws no <foreignObject>), in the font TextReel draws it in.
        config = {'theme': theme, 'securityLevel': 'strict', 'htmlLabels': False, 'flowchart': {'htmlLabels': False},
                  'fontFamily': 'DejaVu Sans', 'deterministicIds': True, 'deterministicIDSeed': 'diagram',
                  'handDrawnSeed': 1}
        return self.evaluate('renderOne(%s, %s)' % (json.dumps(source), json.dumps(config)))

    def stop(self):
        try:
            os.killpg(self.process.pid, 9)
            self.process.wait(5)
        except Exception:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)

mermaid_browser, browser_problem = None, None

def stop_diagrams():
    if mermaid_browser: mermaid_browser.stop()

def svg_size(svg):
    """The diagram's size in CSS pixels, from its viewBox (mermaid sets width="100%")."""
    box = re.search(r'<svg[^>]*?viewBox="([-0-9.e ]+)"', svg)
    numbers = [float(n) for n in box.group(1).split()] if box else []
    return (numbers[2], numbers[3]) if len(numbers) == 4 else (0.0, 0.0)

# How far a browser moves text off its baseline for each `dominant-baseline`, in em of DejaVu
# Sans (ascent .928, descent .236, x-height .547; a hanging baseline at .8 of the ascent, as
# Chromium places it for a font without one). librsvg 2.54 ignores the property: mermaid's
# centred labels sat half a line high and its hanging ones above their boxes.
BASELINE_SHIFTS = {'central': .346, 'middle': .274, 'hanging': .742, 'text-before-edge': .928,
                   'text-after-edge': -.236, 'ideographic': -.236}

def for_librsvg(svg):
    """Mermaid's SVG as a browser shows it, in what librsvg draws: the SVG text a <switch> offers
    beside an HTML label (librsvg takes the <foreignObject> and draws nothing), text moved to the
    baseline its `dominant-baseline` names, and each tspan's leading space kept (SVG's default
    whitespace handling dropped it: "Ship it" drew "Shipit")."""
    svg = re.sub(r'(<switch>)\s*<foreignObject\b.*?</foreignObject>', r'\1', svg, flags=re.S)
    def shifted(match):
        tag = match.group(0)
        baseline = re.search(r'dominant-baseline(?:="|:\s*)([a-z-]+)', tag)
        if not baseline or baseline.group(1) not in BASELINE_SHIFTS: return tag
        size = re.search(r'font-size(?:="|:\s*)([0-9.]+)', tag)
        dy = BASELINE_SHIFTS[baseline.group(1)] * float(size.group(1) if size else 16)
        transform = re.search(r'\stransform="([^"]*)"', tag)
        if transform:
            return tag[:transform.start()] + ' transform="%s translate(0 %.2f)"' % (transform.group(1), dy) + tag[transform.end():]
        return tag[:5] + ' transform="translate(0 %.2f)"' % dy + tag[5:]
    svg = re.sub(r'<text\b[^>]*>', shifted, svg)
    return re.sub(r'<text(?![^>]*xml:space)', '<text xml:space="preserve"', svg)

def diagram(request):
    """A Mermaid diagram as SVG with its size, or mermaid's reason it is not one."""
    global mermaid_browser, browser_problem
    if mermaid_browser is None or mermaid_browser.script != request['script']:
        stop_diagrams()
        mermaid_browser = None
        # A browser that would not start is not started again for every diagram.
        if browser_problem: return {'ok': False, 'error': browser_problem}
        try:
            mermaid_browser = MermaidBrowser(request['script'])
        except Exception as error:
            browser_problem = 'chromium could not draw it (%s)' % (str(error).strip().split('\n')[-1] or type(error).__name__)
            return {'ok': False, 'error': browser_problem}
    answer = mermaid_browser.render(request['diagram'], request.get('theme', 'default')) or {}
    if 'svg' not in answer:
        lines = [l.strip() for l in str(answer.get('error', 'mermaid drew nothing')).split('\n') if l.strip()]
        # "Parse error on line 2:", the source line, a caret, "Expecting …": the first and last.
        reason = lines[0] if len(lines) < 2 else lines[0].rstrip(':') + ': ' + lines[-1]
        return {'ok': False, 'error': reason[:300]}
    svg = answer['svg']
    width, height = svg_size(svg)
    if width <= 0 or height <= 0: return {'ok': False, 'error': 'mermaid drew an empty diagram'}
    # Its own size, so that librsvg reads it as the browser shows it at its natural width.
    root = re.match(r'<svg[^>]*>', svg)
    if not root: return {'ok': False, 'error': 'mermaid drew no SVG'}
    svg = for_librsvg(svg)
    root = re.match(r'<svg[^>]*>', svg)
    tag = re.sub(r'\s(?:width|height)="[^"]*"', '', root.group(0))
    svg = tag[:4] + ' width="%s" height="%s"' % (width, height) + tag[4:] + svg[root.end():]
    return {'ok': True, 'svg': svg, 'width': width, 'height': height}
