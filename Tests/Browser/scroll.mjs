// The peer of a TextReel scroll: headless Chromium scrolls a page and writes each frame as a PNG
// through the DevTools protocol (scrollTo, then Page.captureScreenshot), as people do today to
// turn Markdown into frames. Used by `make bench-peers`.
// Usage: node --experimental-websocket scroll.mjs <chromium> <page url> <frames> <pixels a frame> <out folder>
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [chromium, url, framesText, stepText, out] = process.argv.slice(2);
const frames = Number(framesText), step = Number(stepText);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "textreel-peer-"));
const browser = spawn(chromium, ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
  "--window-size=800,600", "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], { stdio: "ignore" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fail = (message) => { console.error(message); browser.kill("SIGKILL"); process.exit(1); };
setTimeout(() => fail("timed out"), 300000);

let port;
for (let i = 0; i < 300 && !port; i++) {
  try { port = fs.readFileSync(path.join(profile, "DevToolsActivePort"), "utf8").split("\n")[0]; } catch { await sleep(50); }
}
if (!port) fail("Chromium did not start");
const page = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()).find((t) => t.type === "page");
const socket = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((resolve) => socket.addEventListener("open", resolve));
let next = 0;
const pending = new Map(), events = [];
socket.addEventListener("message", (message) => {
  const data = JSON.parse(message.data);
  if (data.id !== undefined && pending.has(data.id)) { pending.get(data.id)(data); pending.delete(data.id); }
  else if (data.method) events.push(data.method);
});
const send = (method, params = {}) => new Promise((resolve) => {
  const id = ++next;
  pending.set(id, resolve);
  socket.send(JSON.stringify({ id, method, params }));
});
await send("Page.enable");
await send("Emulation.setDeviceMetricsOverride", { width: 800, height: 600, deviceScaleFactor: 1, mobile: false });
await send("Page.navigate", { url });
for (let i = 0; i < 600 && !events.includes("Page.loadEventFired"); i++) await sleep(20);
fs.mkdirSync(out, { recursive: true });
for (let frame = 1; frame <= frames; frame++) {
  await send("Runtime.evaluate", { expression: `window.scrollTo(0, ${(frame - 1) * step})` });
  const shot = await send("Page.captureScreenshot", { format: "png" });
  fs.writeFileSync(path.join(out, `frame-${String(frame).padStart(5, "0")}.png`), Buffer.from(shot.result.data, "base64"));
}
socket.close();
const exited = new Promise((resolve) => browser.on("exit", resolve));
browser.kill("SIGKILL");
await exited;
fs.rmSync(profile, { recursive: true, force: true });
process.exit(0);
