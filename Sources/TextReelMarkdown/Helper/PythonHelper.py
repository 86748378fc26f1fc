"""TextReel's helper process: reads a JSON request a line on stdin, answers a JSON line on stdout.

Its parts are embedded into the library at build time (Package.swift's embedInCode) and run, one
after another, by Debian's python3 -I -S: MermaidBrowser.py (diagrams), Highlight.py (Pygments),
MathIdioms.py and MathLayout.py (math), then this file, which answers requests.
"""
import sys, json, os, select, threading

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
