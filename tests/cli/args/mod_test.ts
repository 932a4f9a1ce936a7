import assert from "node:assert/strict";
import { parseCli } from "../../../src/cli/args/mod.ts";
import { UsageError } from "../../../src/errors/mod.ts";
import { splitCommandLine } from "../../../src/run/split.ts";

Deno.test("parseCli() parses run options with defaults", () => {
  const args = parseCli(["run", "hi"]);
  assert.deepEqual(args, {
    command: "run",
    prompt: "hi",
    toolDirs: ["./tools"],
    toolDirsExplicit: false,
    agent: undefined,
    cwd: undefined,
    session: undefined,
    approve: "deny",
    approvals: { rules: [], fallback: "deny", fallbackOrigin: "command" },
    deltas: false,
    lastMessage: undefined,
    timeoutMs: undefined,
    startTimeoutMs: 60_000,
    stallTimeoutMs: 60_000,
    failOnToolError: false,
    recordArgs: false,
    kernelSandbox: "auto",
    config: undefined,
    noConfig: false,
    mcpConfigs: [],
  });
});

Deno.test("parseCli() takes --fail-on-tool-error", () => {
  const args = parseCli(["run", "--fail-on-tool-error", "x"]);
  assert.ok(args.command === "run");
  assert.equal(args.failOnToolError, true);
});

Deno.test("parseCli() rejects a malformed --session ID before anything starts", () => {
  for (const bad of ["has space", "a/b", "x".repeat(65), "é"]) {
    assert.throws(
      () => parseCli(["run", "--session", bad, "x"]),
      (e) =>
        e instanceof UsageError &&
        e.message ===
          `Option --session is not a session ID (1 to 64 of A-Z a-z 0-9 _ -): ${
            JSON.stringify(bad)
          }`,
    );
  }
  const ok = parseCli(["run", "--session", "Ab_9-z", "x"]);
  assert.ok(ok.command === "run" && ok.session === "Ab_9-z");
});

Deno.test("parseCli() parses --require-kernel-sandbox and --no-kernel-sandbox; both conflict", () => {
  const required = parseCli(["run", "--require-kernel-sandbox", "hi"]);
  assert.ok(required.command === "run" && required.kernelSandbox === "require");
  const off = parseCli(["run", "--no-kernel-sandbox", "hi"]);
  assert.ok(off.command === "run" && off.kernelSandbox === "off");
  assert.throws(
    () => parseCli(["run", "--require-kernel-sandbox", "--no-kernel-sandbox", "hi"]),
    /--require-kernel-sandbox and --no-kernel-sandbox conflict/,
  );
});

Deno.test("parseCli() converts --stall-timeout to ms; 0 disables the probe", () => {
  const args = parseCli(["run", "--stall-timeout", "0", "x"]);
  assert.ok(args.command === "run");
  assert.equal(args.stallTimeoutMs, 0);
  const other = parseCli(["run", "--stall-timeout", "2.5", "x"]);
  assert.ok(other.command === "run");
  assert.equal(other.stallTimeoutMs, 2_500);
});

Deno.test("parseCli() collects repeated --tools and converts --timeout to ms", () => {
  const args = parseCli(["run", "--tools", "a", "--tools", "b", "--timeout", "1.5", "x"]);
  assert.ok(args.command === "run");
  assert.deepEqual(args.toolDirs, ["a", "b"]);
  assert.equal(args.timeoutMs, 1500);
});

const BAD: { argv: string[]; names: RegExp }[] = [
  { argv: ["run", "--bogus"], names: /--bogus/ },
  { argv: ["--bogus"], names: /--bogus/ },
  { argv: ["run", "--approve", "maybe", "x"], names: /--approve/ },
  { argv: ["run", "--timeout", "-1", "x"], names: /--timeout/ },
  { argv: ["run", "--timeout", "abc", "x"], names: /--timeout/ },
  { argv: ["run", "--deltas=yes", "x"], names: /--deltas/ },
  { argv: ["tools", "--json", "extra"], names: /extra/ },
  { argv: ["frobnicate"], names: /frobnicate/ },
  { argv: ["run", "a", "b"], names: /b/ },
];

for (const { argv, names } of BAD) {
  Deno.test(`parseCli() rejects ${JSON.stringify(argv)} naming the problem`, () => {
    assert.throws(() => parseCli(argv), (e) => e instanceof UsageError && names.test(e.message));
  });
}

Deno.test("parseCli() recognises help and version", () => {
  assert.deepEqual(parseCli([]), { command: "help", topic: undefined });
  assert.deepEqual(parseCli(["run", "-h"]), { command: "help", topic: "run" });
  assert.deepEqual(parseCli(["--version"]), { command: "version" });
});

const SPLITS: { line: string; words: string[] }[] = [
  { line: "magi-code serve --stdio", words: ["magi-code", "serve", "--stdio"] },
  { line: `deno run "a b/c.ts"  'x y'`, words: ["deno", "run", "a b/c.ts", "x y"] },
  { line: `a\\ b "q\\"d" 'it''s'`, words: ["a b", 'q"d', "its"] },
];

for (const { line, words } of SPLITS) {
  Deno.test(`splitCommandLine() splits ${JSON.stringify(line)}`, () => {
    assert.deepEqual(splitCommandLine(line), words);
  });
}

Deno.test("splitCommandLine() rejects unterminated quotes and empty commands", () => {
  assert.throws(() => splitCommandLine(`a "b`), UsageError);
  assert.throws(() => splitCommandLine(`a 'b`), UsageError);
  assert.throws(() => splitCommandLine("   "), UsageError);
});

Deno.test("parseCli() parses tools --deno-flags with --agent and --permissions-json", () => {
  assert.deepEqual(parseCli(["tools", "--deno-flags", "--agent", "magi-code serve --stdio"]), {
    command: "tools",
    toolDirs: ["./tools"],
    toolDirsExplicit: false,
    json: false,
    permissionsJson: false,
    denoFlags: true,
    taskFlags: false,
    agent: "magi-code serve --stdio",
    approvals: { rules: [], fallback: "deny", fallbackOrigin: "command" },
    config: undefined,
    noConfig: false,
    mcpConfigs: [],
  });
  const listing = parseCli(["tools", "--permissions-json"]);
  assert.ok(listing.command === "tools" && listing.permissionsJson && !listing.json);
});

Deno.test("parseCli() refuses combined tools output modes and --agent without --deno-flags", () => {
  assert.throws(() => parseCli(["tools", "--json", "--deno-flags"]), /--json and --deno-flags/);
  assert.throws(
    () => parseCli(["tools", "--json", "--permissions-json"]),
    /--json and --permissions-json/,
  );
  assert.throws(() => parseCli(["tools", "--agent", "x"]), UsageError);
});

Deno.test("parseCli() parses the config flags of run, tools and mcp", () => {
  const run = parseCli([
    "run",
    "--config",
    "c.jsonc",
    "--mcp-config",
    "a.json",
    "--mcp-config",
    "b.json",
    "x",
  ]);
  assert.ok(run.command === "run");
  assert.deepEqual([run.config, run.noConfig, run.mcpConfigs], ["c.jsonc", false, [
    "a.json",
    "b.json",
  ]]);
  const tools = parseCli(["tools", "--no-config"]);
  assert.ok(tools.command === "tools" && tools.noConfig && tools.config === undefined);
  assert.throws(
    () => parseCli(["run", "--config", "a", "--no-config", "x"]),
    /Options --config and --no-config cannot be combined/,
  );
  assert.throws(() => parseCli(["run", "--mcp-config", "", "x"]), /--mcp-config needs a file/);
});

Deno.test("parseCli() parses mcp with --tools and --http PORT", () => {
  assert.deepEqual(parseCli(["mcp", "--tools", "t", "--http", "8080"]), {
    command: "mcp",
    toolDirs: ["t"],
    toolDirsExplicit: true,
    http: 8080,
    token: undefined,
    maxSessions: 64,
    sessionIdleMs: 1_800_000,
    approve: "ask",
    approvals: { rules: [], fallback: "ask", fallbackOrigin: "command" },
    approveTimeoutMs: 120_000,
    startTimeoutMs: 60_000,
    config: undefined,
    noConfig: false,
    mcpConfigs: [],
    watch: false,
    maxResultBytes: undefined,
    overflow: undefined,
  });
  const bounded = parseCli(["mcp", "--max-result-bytes", "80000", "--overflow", "truncate"]) as {
    maxResultBytes?: number;
    overflow?: string;
  };
  assert.equal(bounded.maxResultBytes, 80_000);
  assert.equal(bounded.overflow, "truncate");
  assert.throws(
    () => parseCli(["mcp", "--max-result-bytes", "100"]),
    /^UsageError: Option --max-result-bytes must be an integer from 1024 to 1048576: 100$/,
  );
  assert.throws(() => parseCli(["mcp", "--overflow", "cut"]), /--overflow/);
  assert.equal((parseCli(["mcp", "--watch"]) as { watch?: boolean }).watch, true);
  const stdio = parseCli(["mcp"]);
  assert.ok(stdio.command === "mcp" && stdio.http === undefined);
  assert.deepEqual(stdio.toolDirs, ["./tools"]);
  assert.throws(() => parseCli(["mcp", "--http", "99999"]), /--http must be a port number/);
  assert.throws(() => parseCli(["mcp", "--http", "x1"]), /--http must be a port number/);
  assert.throws(() => parseCli(["mcp", "extra"]), /Unexpected argument: extra/);
  assert.deepEqual(parseCli(["mcp", "--help"]), { command: "help", topic: "mcp" });
});

Deno.test("parseCli() parses mcp's --token, --approve and --approve-timeout", () => {
  const token = "a".repeat(16);
  const http = parseCli([
    "mcp",
    "--http",
    "0",
    "--token",
    token,
    "--approve",
    "deny",
    "--approve-timeout",
    "0.25",
  ]);
  assert.ok(http.command === "mcp");
  assert.deepEqual([http.token, http.approve, http.approveTimeoutMs], [token, "deny", 250]);
  const allow = parseCli(["mcp", "--approve", "allow"]);
  assert.ok(allow.command === "mcp" && allow.approve === "allow");
  assert.throws(() => parseCli(["mcp", "--token", token]), /Option --token needs --http/);
  assert.throws(
    () => parseCli(["mcp", "--http", "0", "--token", "short"]),
    /Option --token must be 16 to 512 characters/,
  );
  assert.throws(
    () => parseCli(["mcp", "--http", "0", "--token", `${token} x`]),
    /Option --token must be 16 to 512 characters/,
  );
  assert.throws(
    () => parseCli(["mcp", "--approve", "yes"]),
    /--approve must be deny, allow or ask/,
  );
  assert.throws(
    () => parseCli(["mcp", "--approve-timeout", "0"]),
    /--approve-timeout must be a number of seconds in \(0, 86400\]: 0/,
  );
});

Deno.test("parseCli() parses mcp's --max-sessions and --session-idle-timeout (HTTP only)", () => {
  const http = parseCli([
    "mcp",
    "--http",
    "0",
    "--max-sessions",
    "2",
    "--session-idle-timeout",
    "0.5",
  ]);
  assert.ok(http.command === "mcp");
  assert.deepEqual([http.maxSessions, http.sessionIdleMs], [2, 500]);
  const never = parseCli(["mcp", "--http", "0", "--session-idle-timeout", "0"]);
  assert.ok(never.command === "mcp" && never.sessionIdleMs === 0);
  assert.throws(
    () => parseCli(["mcp", "--max-sessions", "2"]),
    /Option --max-sessions needs --http/,
  );
  assert.throws(
    () => parseCli(["mcp", "--session-idle-timeout", "5"]),
    /Option --session-idle-timeout needs --http/,
  );
  assert.throws(
    () => parseCli(["mcp", "--http", "0", "--max-sessions", "0"]),
    /Option --max-sessions must be an integer from 1 to 4096: 0/,
  );
  assert.throws(
    () => parseCli(["mcp", "--http", "0", "--session-idle-timeout", "1x"]),
    /Option --session-idle-timeout must be a number of seconds in \[0, 86400\]: 1x/,
  );
});

Deno.test("parseCli() says whether --tools was given, for every command that loads tools", () => {
  const commands: string[][] = [
    ["run", "x"],
    ["tools"],
    ["mcp"],
    ["call", "t"],
    ["inspect"],
    ["batch", "in.jsonl", "--out", "o"],
  ];
  for (const command of commands) {
    const implicit = parseCli(command) as { toolDirs?: string[]; toolDirsExplicit?: boolean };
    assert.deepEqual(
      [implicit.toolDirs, implicit.toolDirsExplicit],
      [["./tools"], false],
      command.join(" "),
    );
    // `--tools ./tools` names the default directory, but explicitly: a missing one is an error.
    const explicit = parseCli([...command, "--tools", "./tools", "--tools", "b"]) as {
      toolDirs?: string[];
      toolDirsExplicit?: boolean;
    };
    assert.deepEqual(
      [explicit.toolDirs, explicit.toolDirsExplicit],
      [["./tools", "b"], true],
      command.join(" "),
    );
    assert.throws(() => parseCli([...command, "--tools", ""]), /--tools needs a directory/);
  }
});

Deno.test("parseCli() takes --start-timeout on run, batch, call, mcp and inspect (default 60 s)", () => {
  for (
    const argv of [
      ["run", "x"],
      ["batch", "in.jsonl", "--out", "o"],
      ["call", "t"],
      ["mcp"],
      ["inspect"],
    ]
  ) {
    const parsed = parseCli([...argv, "--start-timeout", "2.5"]) as { startTimeoutMs?: number };
    assert.equal(parsed.startTimeoutMs, 2_500, argv[0]);
    assert.equal((parseCli(argv) as { startTimeoutMs?: number }).startTimeoutMs, 60_000);
    assert.throws(
      () => parseCli([...argv, "--start-timeout", "0"]),
      /Option --start-timeout must be a number of seconds/,
    );
  }
});
