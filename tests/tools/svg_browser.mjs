// Drive a flame-graph SVG of `xperf report --flamegraph` in headless Chromium (chromium.mjs),
// as a person would: mouse clicks on boxes, Ctrl-F and the search prompt.
//
//   node --experimental-websocket svg_browser.mjs FILE.svg zoom [MAX]
//     click every box (at most MAX spread over the file, and the deepest), one at a time,
//     and check what is left on screen: each row below the box holds exactly its caller
//     (full width, faded), its own row only the box, every box above it sits on a shown box, and the
//     callers are the ones its call path names. Prints "clicked N, mouse M, bad B" and a
//     line per bad box (at most 20).
//   node ... FILE.svg search REGEX
//     Ctrl-F, type REGEX in the prompt; prints "matched TEXT", the names of the boxes in
//     the search colour ("box NAME"), then clicks the Reset Search button and prints
//     "after reset TEXT, N highlighted".
//
// Who calls whom comes from the file itself: boxes are written depth first, so the callers
// of a box are the nearest boxes before it one row lower each (the oracle the checks use).
import { resolve } from "node:path";
import { openPage } from "./chromium.mjs";

const [svg, cmd, arg] = process.argv.slice(2);
if (!svg || !cmd) {
	console.error("usage: svg_browser.mjs FILE.svg zoom [MAX] | search REGEX");
	process.exit(2);
}

// a minute, and a second more per box a zoom clicks
const limit = 60 + (cmd === "zoom" && arg ? +arg : cmd === "zoom" ? 1000 : 0);
const b = await openPage("svg_browser", limit);
const { send, event, js, click, finish } = b;

const loaded = event("Page.loadEventFired");
await send("Page.navigate", { url: "file://" + resolve(svg) });
await loaded;
const height = await js("document.documentElement.getAttribute('height') | 0");
await send("Emulation.setDeviceMetricsOverride",
	{ width: 1200, height: Math.max(height, 100), deviceScaleFactor: 1, mobile: false });

// In the page: the boxes, their rows and the oracle's callers of box i.
await js(`
	var B = Array.from(document.querySelectorAll("#frames > g"));
	var D = B.map(function (g) { return +g.getAttribute("data-d"); });
	function callers(i) {
		var r = [], d = D[i];
		for (var j = i - 1; j >= 0 && d > 0; j--) if (D[j] === d - 1) { r.unshift(j); d--; }
		return r;
	}
	function rectOf(g) { var r = g.querySelector("rect");
		return { x: +r.getAttribute("x"), w: +r.getAttribute("width") }; }
	function shown(g) { return getComputedStyle(g).display !== "none"; }
	// what is wrong on screen after a zoom into box i ("" nothing)
	function check(i) {
		var anc = callers(i), bad = [], byRow = {};
		B.forEach(function (g, j) { if (shown(g)) (byRow[D[j]] = byRow[D[j]] || []).push(j); });
		for (var d = 0; d <= D[i]; d++) {
			var want = d < D[i] ? anc[d] : i, got = byRow[d] || [];
			if (got.length !== 1 || got[0] !== want) {
				bad.push("row " + d + ": " + got.length + " shown, want " + B[want].getAttribute("data-n"));
				continue;
			}
			var r = rectOf(B[want]);
			if (Math.abs(r.x - 10) > 0.05 || Math.abs(r.w - 1180) > 0.05)
				bad.push("row " + d + " not full width: x " + r.x + " w " + r.w);
			if (d < D[i] && !B[want].classList.contains("p")) bad.push("row " + d + " caller not faded");
		}
		Object.keys(byRow).forEach(function (k) {
			if (+k <= D[i]) return;
			byRow[k].forEach(function (j) {
				var r = rectOf(B[j]), ok = (byRow[+k - 1] || []).some(function (p) {
					var q = rectOf(B[p]);
					return r.x >= q.x - 0.15 && r.x + r.w <= q.x + q.w + 0.15;
				});
				if (!ok) bad.push(B[j].getAttribute("data-n") + " (row " + k + ") on no shown caller");
			});
		});
		return bad.join("; ");
	}
	true`);

if (cmd === "zoom") {
	const n = await js("B.length"), max = arg ? +arg : n, step = Math.max(1, n / max);
	// boxes spread over the file, and the deepest one
	const pick = new Set([await js("D.indexOf(Math.max.apply(null, D))")]);
	for (let k = 0; k < n; k += step) pick.add(Math.floor(k));
	let clicked = 0, mouse = 0;
	const bad = [];
	for (const i of pick) {
		if (await js("!document.getElementById('unzoom').classList.contains('hide')")) {
			const u = await js("(function () { var b = document.getElementById('unzoom').getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; })()");
			await click(u[0], u[1]);
		}
		// the middle of the box when the mouse can hit it, else a click event sent to it
		const at = await js(`(function () { var r = B[${i}].querySelector("rect"), b = r.getBBox();
			var x = b.x + b.width / 2, y = b.y + b.height / 2, e = document.elementFromPoint(x, y);
			return b.width >= 1 && e && e.closest("g") === B[${i}] ? [x, y] : null; })()`);
		if (at) {
			await click(at[0], at[1]);
			mouse++;
		} else {
			await js(`B[${i}].querySelector("rect").dispatchEvent(new MouseEvent("click", { bubbles: true })), 0`);
		}
		clicked++;
		const why = await js(`check(${i})`);
		if (why) bad.push(`${await js(`B[${i}].getAttribute("data-n")`)} (box ${i}, row ${await js(`D[${i}]`)}): ${why}`);
	}
	console.log(`clicked ${clicked}, mouse ${mouse}, bad ${bad.length}`);
	for (const b of bad.slice(0, 20)) console.log(b);
	finish(0);
} else if (cmd === "search") {
	const dialog = new Promise((ok) => { b.onDialog = ok; });
	// Ctrl-F as the keyboard sends it; the key is answered once the prompt is
	const down = send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "f", code: "KeyF",
		windowsVirtualKeyCode: 70, modifiers: 2 });
	const d = await Promise.race([dialog, new Promise((ok) => setTimeout(() => ok(null), 5000))]);
	if (!d || d.type !== "prompt") {
		console.log("no search prompt after Ctrl-F");
		finish(1);
	}
	await send("Page.handleJavaScriptDialog", { accept: true, promptText: arg });
	await down;
	await send("Input.dispatchKeyEvent", { type: "keyUp", key: "f", code: "KeyF",
		windowsVirtualKeyCode: 70, modifiers: 2 });
	console.log("matched " + await js("document.getElementById('matched').textContent"));
	const boxes = await js(`B.filter(function (g) {
		return getComputedStyle(g.querySelector("rect")).fill === "rgb(230, 0, 230)"; })
		.map(function (g) { return g.getAttribute("data-n"); })`);
	for (const b of boxes) console.log("box " + b);
	const s = await js("(function () { var b = document.getElementById('search').getBBox(); return [b.x + b.width / 2, b.y + b.height / 2, document.getElementById('search').textContent]; })()");
	console.log("button " + s[2]);
	await click(s[0], s[1]);
	const left = await js(`B.filter(function (g) {
		return getComputedStyle(g.querySelector("rect")).fill === "rgb(230, 0, 230)"; }).length`);
	console.log(`after reset ${await js("document.getElementById('matched').textContent")}, ${left} highlighted`);
	finish(0);
} else {
	console.error(`svg_browser: unknown command ${cmd}`);
	finish(2);
}
