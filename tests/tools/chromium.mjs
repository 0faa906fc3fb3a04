// Headless Chromium over the DevTools protocol, for the tests' browser drivers
// (svg_browser.mjs, speedscope_browser.mjs). Node 20 with --experimental-websocket (the
// WebSocket client), chromium on PATH or $CHROMIUM.
//
//   const b = await openPage("my_driver", 60, () => server.close());
//   await b.send("Page.navigate", { url }); await b.js("document.title"); b.finish(0);
//
// The browser runs with a throwaway profile directory. Whatever ends the driver (finish(),
// its time limit, a signal, an uncaught error) ends the browser first, then removes the
// profile (Chromium writes there until it is gone), then exits: 3 for a failure.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// name: the driver's, in its messages; seconds: its time limit; cleanup: run before it ends
export async function openPage(name, seconds, cleanup = () => {}) {
	const profile = mkdtempSync(join(tmpdir(), `${name}-`));
	const chrome = spawn(process.env.CHROMIUM || "chromium",
		["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		 "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"],
		{ stdio: ["ignore", "ignore", "pipe"] });
	let done = false;
	async function finish(code) {
		if (done) return;
		done = true;
		cleanup();
		if (chrome.exitCode === null && chrome.signalCode === null) {
			const gone = new Promise((ok) => chrome.once("exit", ok));
			chrome.kill("SIGKILL");
			await Promise.race([gone, sleep(5000)]);
		}
		try { rmSync(profile, { recursive: true, force: true }); } catch { /* still in use */ }
		process.exit(code);
	}
	for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => finish(3));
	process.on("uncaughtException", (e) => { console.error(`${name}: ${e.message}`); finish(3); });
	process.on("unhandledRejection", (e) => { console.error(`${name}: ${e}`); finish(3); });
	setTimeout(() => { console.error(`${name}: timed out`); finish(3); }, seconds * 1000).unref();

	const port = await new Promise((ok, fail) => {
		let err = "";
		chrome.stderr.on("data", (d) => {
			err += d;
			const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
			if (m) ok(m[1]);
		});
		chrome.on("exit", (c) => fail(new Error(`chromium exited (${c}): ${err.trim().split("\n").pop()}`)));
	}).catch((e) => { console.error(`${name}: ${e.message}`); return finish(3); });

	const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
	const ws = new WebSocket(targets.find((t) => t.type === "page").webSocketDebuggerUrl);
	await new Promise((ok) => ws.addEventListener("open", ok));

	// page.onDialog(params): an alert(), confirm() or prompt() opened (the page blocks on it)
	const page = { onDialog: null, finish };
	let nextId = 1;
	const pending = new Map(), waiters = [];
	ws.addEventListener("message", (m) => {
		const msg = JSON.parse(m.data);
		if (msg.id && pending.has(msg.id)) {
			const { ok, fail } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) fail(new Error(JSON.stringify(msg.error)));
			else ok(msg.result);
		} else if (msg.method) {
			for (const w of waiters.splice(0)) {
				if (w.method === msg.method) w.ok(msg.params);
				else waiters.push(w);
			}
			if (msg.method === "Page.javascriptDialogOpening" && page.onDialog)
				page.onDialog(msg.params);
		}
	});
	// a DevTools command; its result
	page.send = (method, params = {}) => {
		const id = nextId++;
		ws.send(JSON.stringify({ id, method, params }));
		return new Promise((ok, fail) => pending.set(id, { ok, fail }));
	};
	// the next event of that method; its params
	page.event = (method) => new Promise((ok) => waiters.push({ method, ok }));
	// an expression's value in the page (a promise's, awaited)
	page.js = async (expr) => {
		const r = await page.send("Runtime.evaluate",
			{ expression: expr, returnByValue: true, awaitPromise: true });
		if (r.exceptionDetails) throw new Error(`${expr}: ${r.exceptionDetails.exception?.description}`);
		return r.result.value;
	};
	// a left click at (x, y), pressed and released as a mouse does
	page.click = async (x, y) => {
		for (const type of ["mousePressed", "mouseReleased"])
			await page.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
	};
	await page.send("Page.enable");
	await page.send("Runtime.enable");
	return page;
}
