// Clicks an element of a page in headless Chromium, with real mouse events through the DevTools
// protocol, and prints what the element then says. Used by the served-report test.
// Usage: node --experimental-websocket click.mjs <chromium> <url> <css selector>
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [chromium, url, selector] = process.argv.slice(2);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "textreel-chromium-"));
const browser = spawn(chromium, ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
  "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], { stdio: "ignore" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fail = (message) => { console.error(message); browser.kill("SIGKILL"); process.exit(1); };
setTimeout(() => fail("timed out"), 60000);

let port;
for (let i = 0; i < 200 && !port; i++) {
  try { port = fs.readFileSync(path.join(profile, "DevToolsActivePort"), "utf8").split("\n")[0]; } catch { await sleep(100); }
}
if (!port) fail("Chromium did not start");
const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const page = targets.find((t) => t.type === "page");
const socket = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((resolve) => socket.addEventListener("open", resolve));
let next = 0;
const pending = new Map();
const events = [];
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
const evaluate = async (expression) => (await send("Runtime.evaluate", { expression, returnByValue: true })).result.result.value;

await send("Page.enable");
await send("Page.navigate", { url });
for (let i = 0; i < 100 && !events.includes("Page.loadEventFired"); i++) await sleep(100);
await evaluate(`document.querySelector(${JSON.stringify(selector)}).scrollIntoView()`);
const again = JSON.parse(await evaluate(`JSON.stringify(document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect())`));
const x = again.x + again.width / 2, y = again.y + again.height / 2;
for (const type of ["mouseMoved", "mousePressed", "mouseReleased"]) {
  await send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
}
let text = "";
for (let i = 0; i < 100; i++) {
  text = await evaluate(`document.querySelector(${JSON.stringify(selector)}).textContent + " | " + document.getElementById("status").textContent`);
  if (text.startsWith("accepted")) break;
  await sleep(100);
}
console.log(text);
socket.close();
const exited = new Promise((resolve) => browser.on("exit", resolve));
browser.kill("SIGKILL");
await exited;
try { fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 }); } catch {}
process.exit(0);
