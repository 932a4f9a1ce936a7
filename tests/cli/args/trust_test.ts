import assert from "node:assert/strict";
import { parseCli } from "../../../src/cli/args/mod.ts";
import { UsageError } from "../../../src/errors/mod.ts";

Deno.test("parseCli() trust: FILE default ./magi-tools.jsonc, --list, --revoke, --help", () => {
  assert.deepEqual(parseCli(["trust"]), {
    command: "trust",
    action: "trust",
    file: "magi-tools.jsonc",
  });
  assert.deepEqual(parseCli(["trust", "a/b.jsonc"]), {
    command: "trust",
    action: "trust",
    file: "a/b.jsonc",
  });
  assert.deepEqual(parseCli(["trust", "--list"]), {
    command: "trust",
    action: "list",
    file: "magi-tools.jsonc",
  });
  assert.deepEqual(parseCli(["trust", "--revoke", "x.jsonc"]), {
    command: "trust",
    action: "revoke",
    file: "x.jsonc",
  });
  assert.deepEqual(parseCli(["trust", "-h"]), { command: "help", topic: "trust" });
});

Deno.test("parseCli() trust: conflicting or extra arguments are usage errors naming them", () => {
  for (
    const [argv, message] of [
      [["trust", "--list", "--revoke"], /--list and --revoke cannot be combined/],
      [["trust", "a", "b"], /Unexpected argument: b/],
      [["trust", "--list", "a"], /Unexpected argument: a \(--list takes no FILE\)/],
      [["trust", "--force"], /--force/],
    ] as const
  ) {
    assert.throws(() => parseCli([...argv]), (error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, message);
      return true;
    });
  }
});
