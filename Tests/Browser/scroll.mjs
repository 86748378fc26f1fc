// The peer of a TextReel scroll: headless Chromium scrolls a page and writes each frame as a PNG
// through the DevTools protocol (scrollTo, then Page.captureScreenshot), as people do today to
// turn Markdown into frames. Used by `make bench-peers`.
// Usage: node --experimental-websocket scroll.mjs <chromium> <page url> <frames> <pixels a frame> <out folder>
import fs from "node:fs";
import path from "node:path";
import { launch, open } from "./devtools.mjs";

const [chromium, url, framesText, stepText, out] = process.argv.slice(2);
const frames = Number(framesText), step = Number(stepText);
const devtools = await launch(chromium, ["--hide-scrollbars", "--window-size=800,600"], 300000);
const { send } = devtools;
await send("Emulation.setDeviceMetricsOverride", { width: 800, height: 600, deviceScaleFactor: 1, mobile: false });
await open(devtools, url);
fs.mkdirSync(out, { recursive: true });
for (let frame = 1; frame <= frames; frame++) {
  await send("Runtime.evaluate", { expression: `window.scrollTo(0, ${(frame - 1) * step})` });
  const shot = await send("Page.captureScreenshot", { format: "png" });
  fs.writeFileSync(path.join(out, `frame-${String(frame).padStart(5, "0")}.png`), Buffer.from(shot.result.data, "base64"));
}
await devtools.close();
