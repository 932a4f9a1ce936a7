import assert from "node:assert/strict";
import { findMentions, planTurn } from "../../../src/reference_backend/provider/planner.ts";
import {
  expandPlaceholders,
  formatResult,
} from "../../../src/reference_backend/provider/provider.ts";

Deno.test("findMentions() reads name {json} and bare names in prompt order", () => {
  const mentions = findMentions('use b {"x":[1,{"y":"}"}]} then a and b', ["a", "b"]);
  assert.deepEqual(mentions, [
    { tool: "b", arguments: { x: [1, { y: "}" }] } },
    { tool: "a", arguments: {} },
    { tool: "b", arguments: {} },
  ]);
});

Deno.test("findMentions() ignores names inside longer words and inside arguments", () => {
  assert.deepEqual(findMentions("abc a_b xa", ["a"]), []);
  assert.deepEqual(findMentions('b {"note":"a"}', ["a", "b"]), [
    { tool: "b", arguments: { note: "a" } },
  ]);
});

Deno.test("findMentions() treats an unparsable object as a bare mention", () => {
  assert.deepEqual(findMentions("a {not json}", ["a"]), [{ tool: "a", arguments: {} }]);
});

Deno.test("planTurn() echoes a prompt without mentions literally", () => {
  assert.deepEqual(planTurn("hi {{results}}", ["a"]), [
    { kind: "say", text: "Scripted reply: hi {{results}}", repeat: 1, literal: true },
  ]);
});

Deno.test("planTurn() calls every mention together, then reports the results", () => {
  const steps = planTurn('a {"n":1} a', ["a"]);
  assert.deepEqual(steps, [
    {
      kind: "call",
      calls: [
        { tool: "a", arguments: { n: 1 }, label: "call-0" },
        { tool: "a", arguments: {}, label: "call-1" },
      ],
    },
    { kind: "say", text: "{{results}}", repeat: 1, literal: false },
  ]);
});

Deno.test("expandPlaceholders() fills labelled results and the result list", () => {
  const results = [
    { label: "x", name: "a", result: { outcome: "success" as const, errorCode: null, text: "1" } },
    {
      label: null,
      name: "b",
      result: { outcome: "error" as const, errorCode: "tool_failed", text: "no" },
    },
  ];
  assert.equal(expandPlaceholders("<{{result:x}}><{{result:y}}>", results), "<1><>");
  assert.equal(expandPlaceholders("{{results}}", results), "a → 1\nb → error (tool_failed): no");
});

Deno.test("formatResult() describes every outcome", () => {
  assert.equal(
    formatResult("t", { outcome: "cancelled", errorCode: null, text: "" }),
    "t → cancelled",
  );
  assert.equal(formatResult("t", { outcome: "denied", errorCode: null, text: "" }), "t → denied");
  assert.equal(
    formatResult("t", { outcome: "failed", errorCode: "content_limit", text: "" }),
    "t → failed (content_limit)",
  );
});
