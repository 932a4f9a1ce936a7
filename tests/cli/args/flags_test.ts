/** The building blocks of every command's flags (`src/cli/args/_flags.ts`, `host.ts`). */
import assert from "node:assert/strict";
import { integer, oneOf, seconds } from "../../../src/cli/args/_flags.ts";
import { parseCli } from "../../../src/cli/args/mod.ts";
import { UsageError } from "../../../src/errors/mod.ts";
import type { TurnFlags } from "../../../src/run/command_options.ts";

Deno.test("seconds() parses one way for every flag: ms, (0, 86400] or [0, 86400] with zero", () => {
  assert.equal(seconds(undefined, "--timeout"), undefined);
  assert.equal(seconds("1.5", "--timeout"), 1500);
  assert.equal(seconds("86400", "--timeout"), 86_400_000);
  assert.equal(seconds("0", "--stall-timeout", { zero: true }), 0);
  assert.throws(
    () => seconds("0", "--timeout"),
    /^UsageError: Option --timeout must be a number of seconds in \(0, 86400\]: 0$/,
  );
  assert.throws(
    () => seconds("-1", "--stall-timeout", { zero: true }),
    /^UsageError: Option --stall-timeout must be a number of seconds in \[0, 86400\]: -1$/,
  );
  for (const bad of ["", "1e3", "86400.5", " 1", "0x10"]) {
    assert.throws(() => seconds(bad, "--timeout"), UsageError, bad);
  }
});

Deno.test("integer() takes decimal digits in range; its error names the flag and the value", () => {
  assert.equal(integer(undefined, "--port", 0, 65_535), undefined);
  assert.equal(integer("0", "--port", 0, 65_535), 0);
  assert.equal(integer("65535", "--port", 0, 65_535), 65_535);
  assert.throws(
    () => integer("65536", "--port", 0, 65_535),
    /^UsageError: Option --port must be an integer from 0 to 65535: 65536$/,
  );
  assert.throws(
    () => integer("x1", "--http", 0, 65_535, "a port number"),
    /^UsageError: Option --http must be a port number from 0 to 65535: x1$/,
  );
  assert.throws(() => integer("", "--jobs", 1, 64), /^UsageError: Option --jobs needs a value$/);
  assert.throws(() => integer("1.0", "--jobs", 1, 64), /must be an integer from 1 to 64: 1\.0$/);
});

Deno.test("oneOf() lists the words it takes, and falls back when the flag is absent", () => {
  assert.equal(oneOf(undefined, "--progress", ["auto", "always", "never"], "auto"), "auto");
  assert.equal(oneOf(undefined, "--format", ["text", "ndjson"]), undefined);
  assert.equal(oneOf("never", "--progress", ["auto", "always", "never"], "auto"), "never");
  assert.throws(
    () => oneOf("html", "--format", ["text", "ndjson"]),
    /^UsageError: Option --format must be text or ndjson: html$/,
  );
  assert.throws(
    () => oneOf("x", "--approve", ["deny", "allow", "ask"], "deny"),
    /^UsageError: Option --approve must be deny, allow or ask: x$/,
  );
});

Deno.test("run and batch parse the flags they share with one table: the same values, the same errors", () => {
  const shared = [
    "--tools",
    "a",
    "--tools",
    "b",
    "--agent",
    "backend --x",
    "--cwd",
    "dir",
    "--deltas",
    "--timeout",
    "2.5",
    "--stall-timeout",
    "0",
    "--fail-on-tool-error",
    "--no-kernel-sandbox",
    "--no-config",
    "--mcp-config",
    "m.json",
  ];
  const run = parseCli(["run", ...shared, "prompt"]);
  const batch = parseCli(["batch", "in.jsonl", "--out", "o", ...shared]);
  assert.ok(run.command === "run" && batch.command === "batch");
  const keys = [
    "toolDirs",
    "toolDirsExplicit",
    "agent",
    "cwd",
    "deltas",
    "timeoutMs",
    "stallTimeoutMs",
    "failOnToolError",
    "kernelSandbox",
    "config",
    "noConfig",
    "mcpConfigs",
  ] as const;
  const pick = (args: TurnFlags) => keys.map((key) => [key, args[key]]);
  assert.deepEqual(pick(batch), pick(run));
  assert.deepEqual(pick(run), [
    ["toolDirs", ["a", "b"]],
    ["toolDirsExplicit", true],
    ["agent", "backend --x"],
    ["cwd", "dir"],
    ["deltas", true],
    ["timeoutMs", 2500],
    ["stallTimeoutMs", 0],
    ["failOnToolError", true],
    ["kernelSandbox", "off"],
    ["config", undefined],
    ["noConfig", true],
    ["mcpConfigs", ["m.json"]],
  ]);
  for (const [flag, value] of [["--timeout", "0"], ["--stall-timeout", "x"], ["--tools", ""]]) {
    const message = (argv: string[]) => {
      try {
        parseCli(argv);
      } catch (error) {
        return (error as Error).message;
      }
      return "no error";
    };
    const fromRun = message(["run", `${flag}=${value}`, "p"]);
    assert.match(fromRun, new RegExp(`^Option ${flag} `));
    assert.equal(message(["batch", "in.jsonl", "--out", "o", `${flag}=${value}`]), fromRun);
  }
});
