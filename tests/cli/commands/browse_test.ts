import assert from "node:assert/strict";
import { cell } from "../../../src/cli/commands/browse.ts";

Deno.test("cell() escapes tabs, newlines and ESC so a backend title cannot break the table", () => {
  assert.equal(cell("Fix\tthe\nbuild\u001b[31m\r"), "Fix\\u0009the\\u000abuild\\x1b[31m\\u000d");
  assert.equal(cell("plain — ünïcode"), "plain — ünïcode");
  assert.equal(cell("\u009b"), "\\u009b");
});
