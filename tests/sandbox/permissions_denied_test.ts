import assert from "node:assert/strict";
import { sandbox } from "./_setup.ts";

// Each row is a prompt-injected call: the arguments ask a narrowly declared tool for more.
const INJECTED = [
  {
    what: "a file outside the declared paths",
    args: { action: "read", target: "/etc/hostname" },
    text: "Permission denied: read access to a path outside the declared list",
    secret: "/etc/hostname",
  },
  {
    what: "an undeclared host",
    args: { action: "fetch", target: "http://127.0.0.1:18232/" },
    text: "Permission denied: net access to a host outside the declared list",
    secret: "18232",
  },
  {
    what: "an undeclared environment variable",
    args: { action: "env", target: "HOME" },
    text: "Permission denied: env access to a variable outside the declared list",
    secret: "HOME",
  },
  {
    what: "a program",
    args: { action: "run", target: "ls" },
    text: "Permission denied: run access to a program outside the declared list",
    secret: "ls",
  },
] as const;

for (const row of INJECTED) {
  Deno.test(`an isolated tool asked for ${row.what} is refused with permission_denied`, async () => {
    const box = await sandbox();
    try {
      const result = await box.call("probe", row.args);
      assert.equal(result.outcome, "error");
      assert.equal(result.errorCode, "permission_denied");
      assert.equal(result.text, row.text);
      assert.equal(result.text.includes(row.secret), false);
      // The host and the tool's process are unaffected: the next call works.
      const after = await box.call("probe", { action: "echo", target: "still here" });
      assert.equal(after.outcome, "success");
      assert.equal(after.text, "still here");
    } finally {
      await box.close();
    }
  });
}

Deno.test("an isolated tool cannot read the host's other tool modules or the repository", async () => {
  const box = await sandbox();
  try {
    const result = await box.call("probe", { action: "read", target: "deno.json" });
    assert.equal(result.errorCode, "permission_denied");
  } finally {
    await box.close();
  }
});
