// Open a speedscope file in the real viewer: speedscope's own page (the npm package's
// dist/release/index.html) in headless Chromium, driven over the DevTools protocol, the
// file handed to it by #profileURL= from a small HTTP server on 127.0.0.1 (the page
// fetches it as it would from any server). The browser: chromium.mjs.
//
//   node --experimental-websocket speedscope_browser.mjs RELEASE_DIR FILE.json SHOT.png
//
// Prints what the page shows, a line each:
//   title TEXT        the document title (speedscope names the file there)
//   profile TEXT      the toolbar's profile name and its "(i/n)" position
//   error TEXT        a message the page shows instead of a profile (its alert(), or
//                     the page's text when no profile came), then exit 3
//   shot W H N        the screenshot of the time-ordered flame chart saved to SHOT.png:
//                     its size and the number of distinct colours in it
//   hover TEXT        the tooltip of each frame under the mouse moved down the left edge
//                     of the Left Heavy flame chart, outermost first: the heaviest stack
//                     ("16.75ms (47%) work_a shares.c:24": weight, share, name, file:line)
//   sandwich NAME | TOTAL | SELF   the Sandwich view's table (the viewer's own
//                     per-function summary), its rows as it sorts them (by self, most
//                     first), at most 40
// Exits 0 when the page was read, 3 when the browser or the page failed.
import { createServer } from "node:http";
import { readFileSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { inflateSync } from "node:zlib";
import { openPage, sleep } from "./chromium.mjs";

const [release, file, shot] = process.argv.slice(2);
if (!release || !file || !shot) {
	console.error("usage: speedscope_browser.mjs RELEASE_DIR FILE.json SHOT.png");
	process.exit(2);
}

// the page and its assets from the package, the profile at /profile.json
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
	".json": "application/json", ".wasm": "application/wasm", ".png": "image/png",
	".woff2": "font/woff2" };
const server = createServer((req, res) => {
	const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
	const on = path === "/profile.json" ? resolve(file) :
		join(resolve(release), path === "/" ? "index.html" : path.replace(/\.\./g, ""));
	try {
		const body = readFileSync(on);
		res.writeHead(200, { "content-type": types[extname(on)] || "application/octet-stream" });
		res.end(body);
	} catch {
		res.writeHead(404);
		res.end();
	}
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const http = `http://127.0.0.1:${server.address().port}`;

const b = await openPage("speedscope_browser", 120, () => server.close());
const { send, js, finish } = b;
// speedscope says a file it cannot import with alert(), which blocks the page
b.onDialog = (params) => {
	console.log(`error ${JSON.stringify(params.message.slice(0, 300))}`);
	finish(3);
};
// poll expr in the page until it is truthy (or the time is up: its last value)
async function until(expr, ms = 30000) {
	let v;
	for (const end = Date.now() + ms; Date.now() < end; await sleep(100))
		if ((v = await js(expr))) return v;
	return v;
}

await send("Emulation.setDeviceMetricsOverride",
	{ width: 1200, height: 800, deviceScaleFactor: 1, mobile: false });
await send("Page.navigate", { url: `${http}/index.html#profileURL=${encodeURIComponent(`${http}/profile.json`)}` });


// The distinct colours of a PNG screenshot (8-bit RGB or RGBA, as Chromium writes them).
function colours(png) {
	let w = 0, h = 0, type = 0, idat = [];
	for (let at = 8; at < png.length;) {
		const len = png.readUInt32BE(at), kind = png.toString("latin1", at + 4, at + 8);
		const body = png.subarray(at + 8, at + 8 + len);
		if (kind === "IHDR") { w = body.readUInt32BE(0); h = body.readUInt32BE(4); type = body[9]; }
		if (kind === "IDAT") idat.push(body);
		at += 12 + len;
	}
	const bpp = type === 6 ? 4 : 3, raw = inflateSync(Buffer.concat(idat)), stride = w * bpp;
	const px = Buffer.alloc(h * stride), seen = new Set();
	for (let y = 0; y < h; y++) {
		const f = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
		for (let x = 0; x < stride; x++) {
			const a = x >= bpp ? px[y * stride + x - bpp] : 0, b = y ? px[(y - 1) * stride + x] : 0;
			const c = x >= bpp && y ? px[(y - 1) * stride + x - bpp] : 0;
			const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
			const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
			px[y * stride + x] = (row[x] + pred) & 255;
		}
		for (let x = 0; x < stride; x += bpp) seen.add(px.readUIntBE(y * stride + x, 3));
	}
	return { w, h, n: seen.size };
}

// the tabs by their label; the toolbar's own text is the profile's name
const tab = (label) => `[...document.querySelectorAll("div")].find(d => d.textContent.endsWith(${JSON.stringify(label)}) && d.children.length === 1)`;
const shown = await until(`(function () {
	var t = ${tab("Sandwich")};
	if (t) return "ok";
	var e = document.body ? document.body.innerText : "";
	return /error|failed|something went wrong/i.test(e) ? e : "";
})()`);
if (shown !== "ok") {
	console.log(`error ${JSON.stringify(String(shown || "nothing shown").slice(0, 300))}`);
	await finish(3);
}
console.log(`title ${await js("document.title")}`);
console.log(`profile ${await js(`${tab("Sandwich")}.parentElement.parentElement.innerText
	.split("\\n").filter(function (l) { return !/Time Order|Export/.test(l); }).join(" ").trim()`)}`);

// the time-ordered flame chart as drawn
await sleep(500);
const png = Buffer.from((await send("Page.captureScreenshot", { format: "png" })).data, "base64");
writeFileSync(shot, png);
const c = colours(png);
console.log(`shot ${c.w} ${c.h} ${c.n}`);

// Left Heavy: the heaviest stack leftmost; the mouse down its left edge names each frame
await js(`${tab("Left Heavy")}.click()`);
await sleep(500);
const tip = `(function () {
	var d = Array.from(document.querySelectorAll("div")).filter(function (e) {
		return getComputedStyle(e).position === "absolute" && e.innerText &&
			!/Time Order|Export/.test(e.innerText);
	});
	return d.length ? d[d.length - 1].innerText.replace(/\\s+/g, " ").trim() : "";
})()`;
let last = "";
for (let y = 100; y < 800; y += 6) {
	await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 40, y });
	const t = await js(tip);
	if (t && t !== last) console.log(`hover ${t}`);
	last = t || last;
}

// Sandwich: the viewer's table of functions
await js(`${tab("Sandwich")}.click()`);
await until(`document.querySelectorAll("tr").length > 1`, 10000);
const rows = await js(`Array.from(document.querySelectorAll("tr")).map(function (r) {
	return Array.from(r.children).map(function (c) { return c.innerText.replace(/\\s+/g, " ").trim(); });
}).filter(function (c) { return c.length === 3 && c[2] !== "Symbol Name"; }).slice(0, 40)`);
for (const r of rows) console.log(`sandwich ${r[2]} | ${r[0]} | ${r[1]}`);
await finish(0);
