// Clicks an element of a page in headless Chromium, with real mouse events through the DevTools
// protocol, and prints what the element then says. Used by the served-report test.
// Usage: node --experimental-websocket click.mjs <chromium> <url> <css selector>
import { launch, open, sleep } from "./devtools.mjs";

const [chromium, url, selector] = process.argv.slice(2);
const devtools = await launch(chromium, [], 60000);
const { send } = devtools;
const evaluate = async (expression) => (await send("Runtime.evaluate", { expression, returnByValue: true })).result.result.value;

await open(devtools, url, 500);
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
await devtools.close();
