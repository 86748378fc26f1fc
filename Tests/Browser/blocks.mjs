// Where a browser puts each block of a Markdown page: headless Chromium opens each page at a
// width (800 for `make fidelity`), waits for its fonts, and prints one JSON object with the page's
// height and, in document order, every leaf block that TextReel makes a paragraph of (a
// paragraph, a heading, a list item's own text, a code block, a table row, a rule, a block
// image, a term or description, a summary), each with its box, the tops and bottoms of its
// lines and its first words. One browser for all the pages, one line of JSON a page, in order.
// Used by `make fidelity` (Tests/Browser/fidelity.py).
// Usage: node --experimental-websocket blocks.mjs <chromium> <width> <page url>…
import { launch, open } from "./devtools.mjs";

const [chromium, widthText, ...urls] = process.argv.slice(2);
const width = Number(widthText);
const devtools = await launch(chromium, ["--hide-scrollbars", "--allow-file-access-from-files", `--window-size=${width},600`],
  60000 + 30000 * urls.length);
const { send } = devtools;
await send("Emulation.setDeviceMetricsOverride", { width, height: 600, deviceScaleFactor: 1, mobile: false });

// Runs in the page. The page is walked in document order: a paragraph, a heading, a code block,
// a table row, a rule or a summary is a block whole; any other box (the page, a list item, a quote,
// a div, a description) makes a block of each run of inline content between its block children,
// as a browser makes anonymous blocks (a list item's text before its nested list; text after a
// `<br />` that opened an HTML block). Boxes a browser does not show (a closed <details>) are skipped.
const measure = async () => {
  await document.fonts.ready;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const WHOLE = new Set(["P", "H1", "H2", "H3", "H4", "H5", "H6", "PRE", "TR", "HR", "SUMMARY", "DT"]);
  const root = document.querySelector(".markdown-body") || document.body;
  const y = (v) => Math.round((v + window.scrollY) * 100) / 100;
  // The text nodes and replaced elements of a node and under it, in order (all of them: callers
  // pass inline content only, or a whole block).
  const leaves = (node, out = []) => {
    if (node.nodeType === Node.TEXT_NODE) { if (node.textContent.trim()) out.push(node); return out; }
    if (node.nodeType !== Node.ELEMENT_NODE) return out;
    // A `<br>` holds a line of its own where it starts a block, as TextReel's empty line does.
    if (["IMG", "SVG", "INPUT", "BR"].includes(node.tagName.toUpperCase())) { out.push(node); return out; }
    for (const child of node.childNodes) leaves(child, out);
    return out;
  };
  // Rects of those nodes grouped into lines: a rect whose middle is below the current line's
  // bottom starts a new line. A text rect is the font's height (ascent + descent); a line is
  // `lineHeight` tall, what is beyond the font's height shared above and below (CSS's half
  // leading, as Pango shares it): each line of text is given as its line box, as TextReel's are.
  const lines = (nodes, lineHeight) => {
    const rects = [];
    for (const node of nodes) {
      let list;
      if (node.nodeType === Node.TEXT_NODE) { const range = document.createRange(); range.selectNodeContents(node); list = range.getClientRects(); }
      else list = node.getClientRects();
      for (const r of list) if ((r.width > 0 || node.tagName === "BR") && r.height > 0) rects.push(r);
    }
    const out = [];
    for (const r of rects) {
      const last = out[out.length - 1];
      if (last && (r.top + r.bottom) / 2 < last.bottom) { last.top = Math.min(last.top, r.top); last.bottom = Math.max(last.bottom, r.bottom); }
      else out.push({ top: r.top, bottom: r.bottom });
    }
    return out.map((l) => {
      const half = lineHeight && l.bottom - l.top < 2 * lineHeight ? (lineHeight - (l.bottom - l.top)) / 2 : 0;
      return [y(l.top - half), y(l.bottom + half)];
    });
  };
  const lineHeightOf = (element) => parseFloat(getComputedStyle(element).lineHeight) || 0;
  const text = (nodes) => nodes.map((n) => n.nodeType === Node.TEXT_NODE ? n.textContent : (n.getAttribute("alt") || ""))
    .join(" ").replace(/\s+/g, " ").trim().slice(0, 80);
  const listDepth = (element) => { let d = 0; for (let e = element; e && e !== root; e = e.parentElement) if (e.tagName === "UL" || e.tagName === "OL") d++; return d; };
  const inQuote = (element) => !!element.closest("blockquote, .markdown-alert");
  const blocks = [];
  const emit = (kind, element, nodes, box) => {
    if (!nodes.some((n) => n.nodeType === Node.TEXT_NODE)) nodes = nodes.filter((n) => n.tagName !== "BR");
    const found = lines(nodes, lineHeightOf(element));
    if (!found.length && kind !== "hr") return;
    if (nodes.length && nodes.every((n) => n.nodeType !== Node.TEXT_NODE)) kind = "img";
    const top = box ? box.top : found[0][0] - window.scrollY, bottom = box ? box.bottom : found[found.length - 1][1] - window.scrollY;
    blocks.push({ kind, top: y(top), bottom: y(bottom), listDepth: listDepth(element), lines: found, text: text(nodes) });
  };
  const whole = (element) => {
    const tag = element.tagName;
    const inList = !!element.parentElement.closest("li");
    if (tag === "HR") return emit("hr", element, [], element.getBoundingClientRect());
    if (tag === "TR") {
      // The row's text: from its cells' highest first line to their lowest last line.
      const cells = [...element.children].map((cell) => leaves(cell));
      const spans = [...element.children].map((cell, k) => lines(cells[k], lineHeightOf(cell))).filter((l) => l.length);
      const block = { kind: element.querySelector("th") ? "th" : "tr", listDepth: listDepth(element),
        text: cells.map(text).filter((t) => t).join(" ").slice(0, 80), top: y(element.getBoundingClientRect().top), bottom: y(element.getBoundingClientRect().bottom),
        lines: spans.length ? [[Math.min(...spans.map((l) => l[0][0])), Math.max(...spans.map((l) => l[l.length - 1][1]))]] : [] };
      if (block.lines.length) blocks.push(block);
      return;
    }
    const kind = tag === "P" ? (inList ? "li-p" : inQuote(element) ? "quote" : "p") : tag.toLowerCase();
    emit(kind, element, leaves(element), null);
  };
  const runKind = (container) => {
    const tag = container.tagName;
    if (tag === "LI") return (container.parentElement.tagName === "OL" ? "ol" : "ul") + "-li";
    if (tag === "DD") return "dd";
    if (container.closest("li")) return "li-p";
    return inQuote(container) ? "quote" : container === root ? "p" : "div";
  };
  const walk = (container) => {
    let run = [];
    const flush = () => { if (run.length) emit(runKind(container), container, run.flatMap((n) => leaves(n)), null); run = []; };
    // A closed <details> shows its summary only (the rest keeps boxes that are not painted).
    const closed = container.tagName === "DETAILS" && !container.open;
    for (const child of container.childNodes) {
      if (closed && child.tagName !== "SUMMARY") continue;
      if (child.nodeType === Node.TEXT_NODE) { if (child.textContent.trim()) run.push(child); continue; }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const display = getComputedStyle(child).display;
      if (display === "none") continue;
      if (display.startsWith("inline") || display === "contents") { run.push(child); continue; }
      flush();
      if (child.checkVisibility && !child.checkVisibility()) continue;
      if (WHOLE.has(child.tagName)) whole(child); else walk(child);
    }
    flush();
  };
  walk(root);
  const page = root.getBoundingClientRect();
  return { width: document.documentElement.clientWidth, top: y(page.top), height: Math.round(page.height * 100) / 100, blocks };
};

let failed = false;
for (const url of urls) {
  devtools.events.length = 0;
  await open(devtools, url);
  const answer = await send("Runtime.evaluate", { expression: `(${measure.toString()})()`, awaitPromise: true, returnByValue: true });
  if (answer.result?.exceptionDetails || !answer.result?.result) {
    console.error(`blocks.mjs: the page's script failed on ${url}: ` + JSON.stringify(answer.result?.exceptionDetails || answer));
    failed = true;
    break;
  }
  process.stdout.write(JSON.stringify(answer.result.result.value) + "\n");
}
if (failed) {
  // close() leaves with status 0: keep this failure's.
  const exit = process.exit;
  process.exit = () => exit(1);
}
await devtools.close();
