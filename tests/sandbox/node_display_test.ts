import assert from "node:assert/strict";
import {
  formatToolPermissions,
  unenforcedPermissionsWarning,
} from "../../src/sandbox/permissions.ts";
import type { ToolInfo } from "../../src/tool/define.ts";

const weather: ToolInfo = {
  name: "weather",
  description: "Weather.",
  effect: "read",
  permissions: { net: ["127.0.0.1:8799"] },
};
const plain: ToolInfo = { name: "plain", description: "Plain.", effect: "read" };

Deno.test("formatToolPermissions() on Node.js shows inline, not a sandbox that is not there", () => {
  assert.equal(formatToolPermissions(weather), "process; net=127.0.0.1:8799");
  assert.equal(
    formatToolPermissions(weather, { processIsolation: false }),
    "inline (permissions not enforced on Node.js); net=127.0.0.1:8799",
  );
  assert.equal(
    formatToolPermissions(plain, { processIsolation: false }),
    "inline (permissions not enforced on Node.js); no permissions",
  );
});

Deno.test("unenforcedPermissionsWarning() names the tools that declare permissions, once", () => {
  assert.equal(
    unenforcedPermissionsWarning([weather, plain], "node"),
    "magi-tools: on Node.js every tool runs inline in the host process: the declared " +
      "permissions of weather are not enforced (run under Deno for the process sandbox)",
  );
  assert.equal(unenforcedPermissionsWarning([plain], "node"), null);
});
