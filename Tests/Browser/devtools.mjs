// Headless Chromium driven over the DevTools protocol with node's own WebSocket: starts the
// browser, connects to its page, and gives `send` (a command, its answer) and the events seen.
// Shared by click.mjs (the served-report test) and scroll.mjs (`make bench-peers`).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function launch(chromium, flags, timeout) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "textreel-chromium-"));
  const browser = spawn(chromium, ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", ...flags,
    "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], { stdio: "ignore" });
  const fail = (message) => { console.error(message); browser.kill("SIGKILL"); process.exit(1); };
  setTimeout(() => fail("timed out"), timeout);
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
  // Closes the connection, kills the browser, removes its profile and leaves: the time-out
  // above would otherwise keep node alive.
  const close = async () => {
    socket.close();
    const exited = new Promise((resolve) => browser.on("exit", resolve));
    browser.kill("SIGKILL");
    await exited;
    try { fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 }); } catch {}
    process.exit(0);
  };
  return { send, events, close };
}

/// Navigates and waits for the load event (at most `waits` × 20 ms).
export async function open(devtools, url, waits = 600) {
  await devtools.send("Page.enable");
  await devtools.send("Page.navigate", { url });
  for (let i = 0; i < waits && !devtools.events.includes("Page.loadEventFired"); i++) await sleep(20);
}
