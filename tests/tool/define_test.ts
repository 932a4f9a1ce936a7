import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, isTool, type ToolSpec } from "../../src/tool/define.ts";

function spec(overrides: Record<string, unknown> = {}): ToolSpec<z.ZodObject> {
  return {
    name: "echo",
    description: "Return the text.",
    input: z.object({ text: z.string() }),
    effect: "read",
    run: ({ text }) => text,
    ...overrides,
  } as ToolSpec<z.ZodObject>;
}

Deno.test("defineTool() returns a frozen, branded tool with the spec's fields", () => {
  const tool = defineTool(spec({ timeoutMs: 5_000, permissions: { read: ["."] } }));
  assert.equal(isTool(tool), true);
  assert.equal(Object.isFrozen(tool), true);
  assert.equal(tool.name, "echo");
  assert.equal(tool.timeoutMs, 5_000);
  assert.deepEqual(tool.permissions, { read: ["."] });
  assert.equal(Object.isFrozen(tool.permissions), true);
  assert.equal(tool.isolation, undefined);
});

Deno.test("isTool() rejects look-alikes", () => {
  assert.equal(isTool({ ...spec() }), false);
  assert.equal(isTool(null), false);
  assert.equal(isTool("echo"), false);
});

const rejected: [string, Record<string, unknown>, RegExp][] = [
  [
    "a name starting with a digit",
    { name: "9bad" },
    /^Tool name must match \^\[A-Za-z\]\[A-Za-z0-9_-\]\{0,63\}\$: 9bad$/,
  ],
  ["an empty name", { name: "" }, /^Tool name must match .*: ""$/],
  ["a 65-character name", { name: "a".repeat(65) }, /^Tool name must match/],
  ["a name with a dot", { name: "a.b" }, /^Tool name must match .*: a\.b$/],
  ["a missing name", { name: undefined }, /^Tool name must match .*: undefined$/],
  [
    "an empty description",
    { description: "" },
    /^Tool description must be 1 to 1024 UTF-8 bytes: echo: 0$/,
  ],
  [
    "a 1025-byte description",
    { description: "é".repeat(512) + "a" },
    /^Tool description must be 1 to 1024 UTF-8 bytes: echo: 1025$/,
  ],
  [
    "a description with CR",
    { description: "a\rb" },
    /control characters other than LF and TAB: echo$/,
  ],
  ["a description with DEL", { description: "a\u007fb" }, /control characters/],
  ["a description with a lone surrogate", { description: "a\ud800" }, /well-formed/],
  ["a non-string description", { description: 5 }, /^Tool description must be a string: echo$/],
  [
    "an input that is not a zod object",
    { input: z.string() },
    /^Tool input must be a zod object schema \(z\.object\): echo$/,
  ],
  ["a plain object input", { input: { text: "string" } }, /^Tool input must be a zod object/],
  [
    "an unknown effect",
    { effect: "delete" },
    /^Tool effect must be "read" or "write": echo: delete$/,
  ],
  [
    "a timeout under 1000 ms",
    { timeoutMs: 999 },
    /^Tool timeoutMs must be an integer from 1000 to 600000: echo: 999$/,
  ],
  ["a timeout over 600000 ms", { timeoutMs: 600_001 }, /timeoutMs.*: 600001$/],
  ["a fractional timeout", { timeoutMs: 1000.5 }, /timeoutMs/],
  [
    "an unknown permission",
    { permissions: { disk: true } },
    /^Tool permissions has an unknown field: echo: disk$/,
  ],
  [
    "a permission list with a number",
    { permissions: { net: [80] } },
    /permissions\.net must be a boolean or a list/,
  ],
  ["a permission list with an empty entry", { permissions: { read: [""] } }, /permissions\.read/],
  [
    "permissions that are not an object",
    { permissions: ["read"] },
    /^Tool permissions must be an object: echo$/,
  ],
  [
    "an unknown isolation",
    { isolation: "thread" },
    /^Tool isolation must be "process" or "inline": echo: thread$/,
  ],
  ["a zero memoryMb", { memoryMb: 0 }, /^Tool memoryMb must be a positive integer: echo: 0$/],
  [
    "a maxResultBytes under 1024",
    { maxResultBytes: 1000 },
    /^Tool maxResultBytes must be an integer from 1024 to 1048576: echo: 1000$/,
  ],
  [
    "a maxResultBytes over the protocol bound",
    { maxResultBytes: 2_000_000 },
    /^Tool maxResultBytes must be an integer from 1024 to 1048576: echo: 2000000$/,
  ],
  [
    "an unknown overflow",
    { overflow: "cut" },
    /^Tool overflow must be "error", "truncate" or "spill": echo: cut$/,
  ],
  [
    "overflow truncate with an output schema",
    { overflow: "truncate", output: z.object({ n: z.number() }) },
    /^Tool overflow must be "error" for a tool with an output schema .*: echo$/,
  ],
  [
    "a memoryMb under the Deno baseline",
    { memoryMb: 63 },
    /^Tool memoryMb must be at least 64 \(a Deno process alone holds about 40–60 MiB\): echo: 63$/,
  ],
  ["a missing run", { run: undefined }, /^Tool run must be a function: echo$/],
  [
    "an unknown field (a typo)",
    { timeout: 5000 },
    /^Tool spec has an unknown field: echo: timeout$/,
  ],
  [
    "an output that is not a zod object",
    { output: z.string() },
    /^Tool output must be a zod object schema \(z\.object\): echo$/,
  ],
  ["an empty title", { title: "" }, /^Tool title must be 1 to 128 UTF-8 bytes/],
  ["a title of two lines", { title: "a\nb" }, /^Tool title must be 1 to 128 UTF-8 bytes/],
  ["a 129-byte title", { title: "t".repeat(129) }, /^Tool title must be 1 to 128/],
  [
    "an unknown annotation",
    { annotations: { readOnly: true } },
    /^Tool annotations has an unknown field: echo: readOnly$/,
  ],
  [
    "a non-boolean annotation",
    { annotations: { idempotentHint: "yes" } },
    /^Tool annotations\.idempotentHint must be a boolean: echo: yes$/,
  ],
  [
    "a readOnlyHint against the effect",
    { annotations: { readOnlyHint: false } },
    /^Tool annotations\.readOnlyHint must agree with effect \(read\): echo: false$/,
  ],
];

Deno.test("defineTool() keeps title, output and annotations", () => {
  const output = z.object({ n: z.number() });
  const tool = defineTool(
    spec({ title: "Echo it", output, annotations: { openWorldHint: true } }),
  );
  assert.equal(tool.title, "Echo it");
  assert.equal(tool.output, output);
  assert.deepEqual(tool.annotations, { openWorldHint: true });
  assert.equal(Object.isFrozen(tool.annotations), true);
});

for (const [what, overrides, message] of rejected) {
  Deno.test(`defineTool() rejects ${what} with a TypeError naming the field`, () => {
    assert.throws(() => defineTool(spec(overrides)), (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, message);
      return true;
    });
  });
}

Deno.test("defineTool() accepts the bounds' edges", () => {
  assert.equal(defineTool(spec({ name: "A" + "b".repeat(63) })).name.length, 64);
  assert.equal(defineTool(spec({ description: "x".repeat(1024) })).description.length, 1024);
  assert.equal(defineTool(spec({ description: "line\n\tnext" })).description, "line\n\tnext");
  assert.equal(defineTool(spec({ timeoutMs: 1_000 })).timeoutMs, 1_000);
  assert.equal(defineTool(spec({ timeoutMs: 600_000 })).timeoutMs, 600_000);
  assert.equal(defineTool(spec({ isolation: "process", memoryMb: 256 })).memoryMb, 256);
  assert.equal(defineTool(spec({ permissions: { net: true, env: false } })).permissions?.net, true);
});

Deno.test("defineTool() rejects a spec that is not an object", () => {
  assert.throws(() => defineTool(null as never), {
    name: "TypeError",
    message: "Tool spec must be an object",
  });
});

Deno.test("defineTool refuses an env prefix of a process tool that would match every variable", () => {
  const spec = (env: string[], isolation?: "inline") => ({
    name: "t",
    description: "T.",
    input: z.object({}),
    effect: "read" as const,
    ...(isolation === undefined ? {} : { isolation }),
    permissions: { env },
    run: () => "",
  });
  for (const wide of ["*", "A*", "AB*", "MY*APP", "*_TOKEN"]) {
    assert.throws(() => defineTool(spec([wide])), /permissions\.env entry .* too wide/, wide);
  }
  assert.doesNotThrow(() => defineTool(spec(["MYAPP_*", "HOME"])));
  // An inline tool is host code: its permissions are the host's anyway.
  assert.doesNotThrow(() => defineTool(spec(["*"], "inline")));
});
