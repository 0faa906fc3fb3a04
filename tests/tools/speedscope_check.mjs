// Check a speedscope file against the schema speedscope ships (the npm package's
// dist/release/file-format-schema.json, JSON Schema draft 7) and summarise its profiles.
//
//   node speedscope_check.mjs SCHEMA.json FILE.json [leaves]
//
// Prints "valid" or each place the file breaks the schema ("invalid PATH: why", exit 1),
// then per profile "profile NAME|UNIT|SAMPLES|SUM OF WEIGHTS|START|END"; with `leaves`,
// per sample "leaf I NAME" (I the profile's index; NAME its innermost frame's).
// The validator knows the keywords that schema uses ($ref, anyOf, type, const, enum,
// properties, required, items) and refuses any other, so a newer schema cannot pass
// unchecked.
import { readFileSync } from "node:fs";

const [schemaPath, file, what] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const doc = JSON.parse(readFileSync(file, "utf8"));
const known = new Set(["$schema", "$ref", "definitions", "title", "anyOf", "type", "const",
	"enum", "properties", "required", "items"]);

function typeOk(t, v) {
	if (t === "object") return v !== null && typeof v === "object" && !Array.isArray(v);
	if (t === "array") return Array.isArray(v);
	if (t === "number") return typeof v === "number" && Number.isFinite(v);
	if (t === "string") return typeof v === "string";
	throw new Error(`schema type ${t} not known to the checker`);
}
// the errors of v against schema node s at path
function check(s, v, path, out) {
	for (const k of Object.keys(s))
		if (!known.has(k)) throw new Error(`schema keyword ${k} not known to the checker`);
	if (s.$ref) {
		const name = s.$ref.replace(/^#\/definitions\//, "");
		check(schema.definitions[name], v, path, out);
	}
	if (s.anyOf) {
		const each = s.anyOf.map((a) => { const e = []; check(a, v, path, e); return e; });
		if (!each.some((e) => !e.length))
			out.push(`${path}: matches none of anyOf (${each.map((e) => e[0]).join("; ")})`);
	}
	if (s.type && !typeOk(s.type, v)) { out.push(`${path}: not a ${s.type}`); return; }
	if ("const" in s && v !== s.const) out.push(`${path}: ${JSON.stringify(v)} is not ${JSON.stringify(s.const)}`);
	if (s.enum && !s.enum.includes(v)) out.push(`${path}: ${JSON.stringify(v)} not one of ${s.enum.join(",")}`);
	for (const r of s.required || []) if (!(r in v)) out.push(`${path}: no ${r}`);
	for (const [k, p] of Object.entries(s.properties || {})) if (k in v) check(p, v[k], `${path}.${k}`, out);
	if (s.items) for (let i = 0; i < v.length; i++) {
		check(s.items, v[i], `${path}[${i}]`, out);
		if (out.length > 20) return;
	}
}
const errors = [];
check(schema, doc, "$", errors);
// what the schema cannot say: frame indexes in range, one weight per sample
const nf = doc.shared?.frames?.length ?? 0;
(doc.profiles || []).forEach((p, i) => {
	if (p.samples?.length !== p.weights?.length) errors.push(`$.profiles[${i}]: ${p.samples?.length} samples, ${p.weights?.length} weights`);
	(p.samples || []).forEach((st, j) => st.forEach((f) => {
		if (!Number.isInteger(f) || f < 0 || f >= nf) errors.push(`$.profiles[${i}].samples[${j}]: frame ${f} of ${nf}`);
	}));
	if ((p.weights || []).some((w) => !(w > 0))) errors.push(`$.profiles[${i}]: a weight not above 0`);
});
for (const e of errors.slice(0, 20)) console.log(`invalid ${e}`);
if (!errors.length) console.log("valid");
(doc.profiles || []).forEach((p, i) => {
	const sum = (p.weights || []).reduce((a, b) => a + b, 0);
	console.log(`profile ${p.name}|${p.unit}|${p.samples?.length}|${sum}|${p.startValue}|${p.endValue}`);
	if (what === "leaves")
		for (const st of p.samples || [])
			console.log(`leaf ${i} ${st.length ? doc.shared.frames[st[st.length - 1]].name : "-"}`);
});
process.exit(errors.length ? 1 : 0);
