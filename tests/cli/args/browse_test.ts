import assert from "node:assert/strict";
import { parseCli } from "../../../src/cli/args/mod.ts";
import { UsageError } from "../../../src/errors/mod.ts";

Deno.test("parseCli() reads the browsing commands", () => {
  assert.deepEqual(parseCli(["sessions", "--table"]), {
    command: "sessions",
    agent: undefined,
    cwd: undefined,
    table: true,
  });
  assert.deepEqual(parseCli(["history", "s1", "--cwd", "/tmp"]), {
    command: "history",
    agent: undefined,
    cwd: "/tmp",
    sessionId: "s1",
  });
  assert.deepEqual(parseCli(["models", "--session", "s1"]), {
    command: "models",
    agent: undefined,
    cwd: undefined,
    table: false,
    session: "s1",
  });
  assert.deepEqual(parseCli(["select", "p", "m", "--effort", "default", "--session", "s1"]), {
    command: "select",
    agent: undefined,
    cwd: undefined,
    provider: "p",
    model: "m",
    effort: "default",
    session: "s1",
  });
  assert.deepEqual(parseCli(["models", "-h"]), { command: "help", topic: "models" });
});

const BAD: [string[], RegExp][] = [
  [["select", "p", "m"], /needs --session/],
  [["select", "p", "--session", "s"], /needs PROVIDER and MODEL/],
  [["select", "p", "m", "--session", "s", "--effort", "High"], /--effort must be one of/],
  [["history"], /needs a SESSION/],
  [["history", "a", "b"], /Unexpected argument: b/],
  [["sessions", "--session", "s"], /session/],
  [["history", "s", "--table"], /table/],
  [["history", "../x"], /SESSION is not a session ID/],
  [["models", "--session", "a b"], /--session is not a session ID/],
  [["select", "p", "m", "--session", "a;b"], /--session is not a session ID/],
];

for (const [argv, message] of BAD) {
  Deno.test(`parseCli() rejects ${argv.join(" ")}`, () => {
    assert.throws(() => parseCli(argv), (e) => e instanceof UsageError && message.test(e.message));
  });
}
