import assert from "node:assert/strict";
import { SecretRedactor } from "../../src/openapi/redact.ts";

const SECRET = "tok_Ab9/+x~Q.z!q*7Zk-LmN_opRsT";
const redactor = new SecretRedactor(SECRET);
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const base64Url = (text: string) =>
  btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const allPercent = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
const allUnicode = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}`)
    .join("");

/** base64 (or base64url) of `prefix + SECRET + suffix`, and its characters that only the secret sets. */
function wrapped(prefix: string, suffix: string, url = false): [string, string] {
  const encoded = url ? base64Url(prefix + SECRET + suffix) : btoa(prefix + SECRET + suffix);
  const from = Math.ceil((prefix.length * 8) / 6);
  const to = Math.floor(((prefix.length + SECRET.length) * 8) / 6);
  return [encoded, encoded.slice(from, to)];
}

/** What the API sent, and the part of it that is the secret's alone. */
const SPELLINGS: readonly [string, [string, string]][] = [
  ["raw", [SECRET, SECRET]],
  ["percent-encoded", [encodeURIComponent(SECRET), encodeURIComponent(SECRET)]],
  ["percent-encoded, lower-case hex", [
    lowerHex(encodeURIComponent(SECRET)),
    lowerHex(encodeURIComponent(SECRET)),
  ]],
  ["every character percent-encoded", [allPercent(SECRET), allPercent(SECRET)]],
  ["JSON with \\/", [SECRET.replaceAll("/", "\\/"), SECRET.replaceAll("/", "\\/")]],
  ["JSON \\u escapes, upper-case hex", [allUnicode(SECRET), allUnicode(SECRET)]],
  ["base64", wrapped("", "")],
  ["base64url", wrapped("", "", true)],
  ["base64 of the whole header value", wrapped("Bearer ", "")],
  ["base64url of the whole header value", wrapped("Bearer ", "", true)],
  ["base64 inside a JSON echo", wrapped('{"authorization":"Bearer ', '","n":1}')],
];

for (const [what, [spelling, own]] of SPELLINGS) {
  Deno.test(`SecretRedactor.redact() redacts the secret ${what}`, () => {
    const out = redactor.redact(`before ${spelling} after`);
    assert.match(out, /^before \S*\[redacted\]\S* after$/);
    // Nothing of the secret's own characters is left: no 6 of them in a row.
    for (let i = 0; i + 6 <= own.length; i++) {
      assert.ok(!out.includes(own.slice(i, i + 6)), `${what}: ${out}`);
    }
  });
}

Deno.test("SecretRedactor redacts HTTP Basic's decoded user:password and the password", () => {
  const basic = new SecretRedactor(btoa("ada:correct horse"));
  assert.equal(
    basic.redact("ada:correct horse / correct+horse / correct%20horse / ada"),
    "[redacted] / [redacted] / [redacted] / ada",
  );
});

Deno.test("SecretRedactor leaves ordinary text and an empty secret alone", () => {
  assert.equal(redactor.redact("plain Ä ✓ 100% tok_ Ab9"), "plain Ä ✓ 100% tok_ Ab9");
  assert.equal(new SecretRedactor(undefined).redact(SECRET), SECRET);
  assert.equal(new SecretRedactor("").redact(SECRET), SECRET);
});

Deno.test("SecretRedactor.excerpt() redacts before the cut: no prefix at the cut survives", () => {
  for (let start = 980; start < 1_030; start++) {
    const body = "e".repeat(start) + SECRET + "f".repeat(2_000);
    const read = body.slice(0, 1_024 + redactor.marginBytes);
    const out = redactor.excerpt(read, { maxBytes: 1_024, complete: false });
    assert.ok(!out.includes(SECRET.slice(0, 4)), `start ${start}: ${out.slice(-40)}`);
    assert.ok(out.endsWith("…") && new TextEncoder().encode(out).length <= 1_027);
  }
});

Deno.test("SecretRedactor.excerpt(): shrinking redactions cannot pull a cut-off prefix forward", () => {
  // Every secret becomes the shorter marker; the read ends inside a secret.
  const body = `${SECRET} `.repeat(100);
  const read = body.slice(0, 1_024 + redactor.marginBytes);
  const out = redactor.excerpt(read, { maxBytes: 1_024, complete: false });
  assert.ok(!out.includes("tok_"), out.slice(-60));
  assert.match(out, /^(\[redacted\] )+\[redacted\]…$|^(\[redacted\] )+…$/);
});

Deno.test("SecretRedactor.excerpt() of a complete short text is the redacted text, uncut", () => {
  assert.equal(
    redactor.excerpt(`{"error":"bad ${SECRET}"}`, { maxBytes: 1_024, complete: true }),
    '{"error":"bad [redacted]"}',
  );
});

Deno.test("SecretRedactor.excerpt(): a multi-byte character cut at the end of the read leaks no prefix", () => {
  const read = 1_024 + redactor.marginBytes;
  const encoder = new TextEncoder();
  for (let lead = 0; lead < 40; lead++) {
    // Secrets shrink to the marker, so text from near the read's end moves into the excerpt;
    // the read ends anywhere, inside 日 (3 bytes) or inside a secret.
    const body = encoder.encode("e".repeat(lead) + `${SECRET}日`.repeat(100));
    const text = new TextDecoder().decode(body.subarray(0, read));
    const out = redactor.excerpt(text, { maxBytes: 1_024, complete: false });
    const left = out.replaceAll("[redacted]", "").replaceAll("日", "").replace(/^e*/, "");
    assert.equal(left, "…", `lead ${lead}: ${out.slice(-40)}`);
  }
});
