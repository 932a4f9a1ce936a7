/**
 * Approval at call time (`src/call/approval.ts`): the view shows every field in sorted
 * order with each value cut on its own, and the executor asks only after validation.
 */

import assert from "node:assert/strict";
import { z } from "zod";
import {
  APPROVAL_MAX_LINES,
  APPROVAL_VALUE_BYTES,
  argumentView,
  argumentViewText,
  type CallApproval,
  schemaIssues,
} from "../../src/call/approval.ts";
import { defineTool } from "../../src/tool/define.ts";
import { ToolExecutor } from "../../src/call/executor.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import { utf8ByteLength } from "../../src/protocol/utf8.ts";

Deno.test("argumentView() lists every field in sorted key order, whatever order the model used", () => {
  const paths = (args: Record<string, unknown>) => argumentView(args).lines.map((l) => l.path);
  const expected = ["a", "m.b", "m.c", "z"];
  assert.deepEqual(paths({ z: 1, m: { c: 2, b: 3 }, a: "x" }), expected);
  assert.deepEqual(paths({ a: "x", m: { b: 3, c: 2 }, z: 1 }), expected);
});

Deno.test("argumentView() cuts each long value on its own and says how much was cut", () => {
  const view = argumentView({ body: "é".repeat(1_000), target: "/etc/passwd" });
  const [body, target] = view.lines;
  assert.ok(utf8ByteLength(body!.value) <= APPROVAL_VALUE_BYTES);
  assert.equal(utf8ByteLength(body!.value) + body!.cutBytes, 2_002); // 1,000 × 2 bytes + quotes
  assert.ok(!body!.value.includes("\ufffd"), "cut at a code point");
  assert.deepEqual(target, { path: "target", value: '"/etc/passwd"', cutBytes: 0 });
  const text = argumentViewText(view);
  assert.match(text[0]!, new RegExp(`… \\(${body!.cutBytes} more bytes not shown\\)$`));
  assert.equal(text[1], 'target: "/etc/passwd"');
});

Deno.test("argumentView() shows odd keys quoted, arrays of objects by index, and empty arguments", () => {
  const view = argumentView({ "a b\nc": 1, list: [{ k: 1 }], tags: ["x", "y"], empty: {} });
  assert.deepEqual(view.lines.map((l) => `${l.path}=${l.value}`), [
    '["a b\\nc"]=1',
    "empty={}",
    "list[0].k=1",
    'tags=["x","y"]',
  ]);
  assert.deepEqual(argumentView({}).lines.map((l) => l.path), ["(no arguments)"]);
});

Deno.test("argumentView() past its line bound counts the fields it does not show", () => {
  const args = Object.fromEntries(
    Array.from({ length: APPROVAL_MAX_LINES + 5 }, (_, i) => [`k${i}`, i]),
  );
  const view = argumentView(args);
  assert.equal(view.lines.length, APPROVAL_MAX_LINES);
  assert.equal(view.hidden, 5);
  assert.match(argumentViewText(view).at(-1)!, /^… 5 more field\(s\) not shown/);
});

Deno.test("schemaIssues() checks arguments against a tool's JSON Schema", () => {
  const schema = z.toJSONSchema(z.strictObject({ path: z.string().min(1) })) as Record<
    string,
    unknown
  >;
  assert.equal(schemaIssues(schema, { path: "a" }), null);
  assert.ok(schemaIssues(schema, {})!.length > 0);
  assert.ok(schemaIssues(schema, { path: "a", extra: 1 })!.length > 0);
});

function writeExecutor(asked: CallApproval[], allow: boolean) {
  let ran = 0;
  const registry = ToolRegistry.fromLoaded([{
    tool: defineTool({
      name: "save",
      description: "Save.",
      input: z.strictObject({ text: z.string() }),
      effect: "write",
      isolation: "inline",
      run: () => `ran ${++ran}`,
    }),
    file: "tools/save.ts",
    url: "file:///save.ts",
  }]);
  const executor = new ToolExecutor(registry, {
    limits: CLIENT_TOOLS_LIMITS,
    cwd: "/work",
    approveCall: {
      asks: () => true,
      decide: (request) => {
        asked.push(request);
        return Promise.resolve(
          allow ? { allow: true } : { allow: false, why: { kind: "declined" } },
        );
      },
    },
  });
  const call = (args: unknown) =>
    executor.execute({
      callId: "c1",
      name: "save",
      toolId: registry.get("save")!.toolId,
      arguments: args,
      deadlineMs: 60_000,
      sessionId: "s",
      runId: "r",
    }, new AbortController().signal);
  return { call, ran: () => ran };
}

Deno.test("ToolExecutor asks about a write call only after its arguments are valid", async () => {
  const asked: CallApproval[] = [];
  const { call, ran } = writeExecutor(asked, true);
  const invalid = await call({ text: 1 });
  assert.equal(invalid.errorCode, "invalid_arguments");
  assert.equal(asked.length, 0);
  const ok = await call({ text: "hi" });
  assert.equal(ok.outcome, "success");
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0]!.view.lines, [{ path: "text", value: '"hi"', cutBytes: 0 }]);
  // The person is told the time that is really left: at most the call's 60 s deadline.
  const left = asked[0]!.expiresInMs;
  assert.ok(left !== undefined && left > 0 && left <= 60_000, `expiresInMs ${left}`);
  assert.equal(ran(), 1);
});

Deno.test("ToolExecutor answers approval_denied and does not run a write call that was refused", async () => {
  const asked: CallApproval[] = [];
  const { call, ran } = writeExecutor(asked, false);
  const result = await call({ text: "hi" });
  assert.equal(result.errorCode, "approval_denied");
  assert.match(result.text, /^Write tool not run: save: the user did not approve it/);
  assert.equal(ran(), 0);
});

Deno.test("argumentView() shows a value nested past its depth bound whole, and never throws on deep nesting", () => {
  let deep: unknown = "bottom";
  for (let i = 0; i < 100_000; i++) deep = [deep, 1];
  const view = argumentView({ deep, other: "x" });
  assert.equal(view.lines.length, 2 + 15, "16 levels opened, then the rest whole");
  assert.ok(view.lines.some((line) => line.path === "other"), "a later key is still shown");
  assert.ok(view.lines.every((line) => line.path.length < 200));
});
