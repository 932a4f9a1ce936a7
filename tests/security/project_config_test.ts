/**
 * Attack family: project configuration is code. A cloned repository's
 * `magi-tools.jsonc` starts stdio MCP servers (any command) and expands
 * `${VAR}`s into URLs and headers: before approval none of it may happen, in
 * any command that reads the config; after approval (`magi-tools trust`,
 * `--config`, `MAGI_TOOLS_TRUST_CONFIG=1`) it works as before; a config with
 * neither needs no approval.
 *
 * Every CLI here runs with its own `XDG_CONFIG_HOME` (its own trust store)
 * and without an inherited `MAGI_TOOLS_TRUST_CONFIG`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEV_CONFIG, FULL_CLI, ROOT } from "../e2e/_cli.ts";
import { FIXTURE_SERVER } from "../mcp/_config.ts";
import { taskFlags } from "../../src/cli/commands/_task_flags.ts";

const FX_TOOLS = ["fx_die", "fx_fail", "fx_hang", "fx_slow_ok", "fx_wait_cancel"];

interface Cloned {
  /** The repository's directory (the CLI's working directory). */
  readonly dir: string;
  /** The file the planted server writes when it starts. */
  readonly marker: string;
  /** Its `XDG_CONFIG_HOME`. */
  readonly xdg: string;
  /** Run the CLI in `dir`. */
  cli(args: string[], env?: Record<string, string>): Promise<Output>;
}

interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The planted stdio server: writes `marker`, then runs the fixture MCP server. */
function markingServer(marker: string) {
  return {
    command: "sh",
    args: [
      "-c",
      'echo started > "$0"; exec "$@"',
      marker,
      Deno.execPath(),
      "run",
      ...DEV_CONFIG,
      "-A",
      FIXTURE_SERVER,
    ],
  };
}

/** A fresh "cloned repository" holding `config` as its magi-tools.jsonc; removed afterwards. */
async function cloned(config: unknown, fn: (repo: Cloned) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "magi-tools-cloned-" });
  const dir = join(root, "repo");
  const xdg = join(root, "xdg");
  await Deno.mkdir(dir);
  const marker = join(root, "server-started");
  const text = typeof config === "function" ? (config as (m: string) => unknown)(marker) : config;
  await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(text, null, 2));
  const base = Deno.env.toObject();
  delete base["MAGI_TOOLS_TRUST_CONFIG"];
  const cli = async (args: string[], env: Record<string, string> = {}): Promise<Output> => {
    // `--flags F... -- ARGS`: deno run with the flags F instead of -A.
    const split = args[0] === "--flags" ? args.indexOf("--") : -1;
    const flags = split > 0 ? args.slice(1, split) : ["-A"];
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...FULL_CLI, ...flags, `${ROOT}cli.ts`, ...args.slice(split + 1)],
      cwd: dir,
      clearEnv: true,
      // The reference backend, named: no magi-code here, and nothing falls back to it unasked.
      env: { ...base, NO_COLOR: "1", XDG_CONFIG_HOME: xdg, MAGI_CODE_AGENT: "reference", ...env },
      stdin: "null",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  };
  try {
    await fn({ dir, marker, xdg, cli });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** The tool names of a `tools` listing. */
function listed(stdout: string): string[] {
  return stdout.split("\n").filter((line) => line.includes("\t")).map((line) =>
    line.split("\t")[0]!
  ).sort();
}

function assertRefused(result: Output, reason: RegExp, what: string): void {
  assert.equal(result.code, 2, `${what}: exit ${result.code}, stderr ${result.stderr}`);
  assert.match(result.stderr, /Project config is not approved: .*magi-tools\.jsonc: /, what);
  assert.match(result.stderr, reason, what);
  assert.equal(result.stdout, "", what);
}

Deno.test("a cloned repo's magi-tools.jsonc starts no server until trusted; an edit needs trust again", async () => {
  await cloned(
    (marker: string) => ({ mcpServers: { fx: markingServer(marker) } }),
    async (repo) => {
      // The attack: `tools` in a fresh clone runs the planted command.
      const refused = await repo.cli(["tools"]);
      assertRefused(refused, /: not trusted yet\n/, "tools");
      assert.equal(await exists(repo.marker), false, "the planted server did not start");
      // The message says what it would start and the three ways to approve.
      assert.match(refused.stderr, /starts fx: sh -c /);
      assert.match(refused.stderr, /magi-tools trust \/.*\/repo\/magi-tools\.jsonc/);
      assert.match(refused.stderr, /--config \/.*\/repo\/magi-tools\.jsonc/);
      assert.match(refused.stderr, /MAGI_TOOLS_TRUST_CONFIG=1/);
      // Every command that reads the config refuses it the same way, before anything starts.
      for (
        const args of [
          ["call", "fx_slow_ok", "{}"],
          ["run", "--agent", "/nonexistent/agent", "hi"],
          ["mcp"],
          ["batch", "input.jsonl", "--out", "out"],
        ]
      ) {
        if (args[0] === "batch") {
          await Deno.writeTextFile(join(repo.dir, "input.jsonl"), '{"id":"a","prompt":"hi"}\n');
        }
        assertRefused(await repo.cli(args), /not trusted yet/, args[0]!);
        assert.equal(await exists(repo.marker), false, `${args[0]}: nothing started`);
      }

      // The legitimate use: the user trusts it, then it starts.
      const trusted = await repo.cli(["trust"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.match(
        trusted.stdout,
        /^Trusted \/.*\/repo\/magi-tools\.jsonc \(sha256 [0-9a-f]{12}…\)/,
      );
      assert.match(trusted.stdout, /starts fx: sh -c /);
      const store = join(repo.xdg, "magi-tools", "trusted-configs.json");
      assert.equal((await Deno.stat(store)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(join(repo.xdg, "magi-tools"))).mode! & 0o777, 0o700);
      const listing = await repo.cli(["tools"]);
      assert.equal(listing.code, 0, listing.stderr);
      assert.deepEqual(listed(listing.stdout), FX_TOOLS);
      assert.equal(await exists(repo.marker), true, "the trusted server started");
      const list = await repo.cli(["trust", "--list"]);
      assert.match(list.stdout, /^ok {6}\S+ +\/.*\/repo\/magi-tools\.jsonc$/m);

      // A change (a pull, or a tool's write) needs approval again.
      await Deno.remove(repo.marker);
      const path = join(repo.dir, "magi-tools.jsonc");
      await Deno.writeTextFile(path, (await Deno.readTextFile(path)) + "\n// changed\n");
      assertRefused(await repo.cli(["tools"]), /: changed since you trusted it\n/, "edited");
      assert.equal(await exists(repo.marker), false, "the edited config started nothing");
      assert.match((await repo.cli(["trust", "--list"])).stdout, /^changed /m);

      // Revoked: refused again.
      assert.equal((await repo.cli(["trust"])).code, 0);
      assert.equal((await repo.cli(["trust", "--revoke"])).code, 0);
      assertRefused(await repo.cli(["tools"]), /not trusted yet/, "revoked");
      assert.equal(await exists(repo.marker), false);
    },
  );
});

Deno.test("--config naming the file and MAGI_TOOLS_TRUST_CONFIG=1 approve it; only 1 counts", async () => {
  await cloned(
    (marker: string) => ({ mcpServers: { fx: markingServer(marker) } }),
    async (repo) => {
      assertRefused(
        await repo.cli(["tools"], { MAGI_TOOLS_TRUST_CONFIG: "yes" }),
        /not trusted yet/,
        "MAGI_TOOLS_TRUST_CONFIG=yes",
      );
      assert.equal(await exists(repo.marker), false);
      const named = await repo.cli(["tools", "--config", "magi-tools.jsonc"]);
      assert.equal(named.code, 0, named.stderr);
      assert.deepEqual(listed(named.stdout), FX_TOOLS);
      assert.equal(await exists(repo.marker), true, "--config: started");
      await Deno.remove(repo.marker);
      const ci = await repo.cli(["tools"], { MAGI_TOOLS_TRUST_CONFIG: "1" });
      assert.equal(ci.code, 0, ci.stderr);
      assert.deepEqual(listed(ci.stdout), FX_TOOLS);
      assert.equal(await exists(repo.marker), true, "MAGI_TOOLS_TRUST_CONFIG=1: started");
    },
  );
});

Deno.test("${VAR}s of an unapproved config are not expanded: no request carries the secret", async () => {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    requests.push(req.headers.get("authorization") ?? "(none)");
    return new Response("no MCP here", { status: 500 });
  });
  const url = `http://127.0.0.1:${server.addr.port}/mcp`;
  try {
    const config = {
      mcpServers: { api: { url, headers: { Authorization: "Bearer ${PLANTED_SECRET}" } } },
    };
    await cloned(config, async (repo) => {
      const secret = { PLANTED_SECRET: "s3cret-value-41" };
      const refused = await repo.cli(["tools"], secret);
      assertRefused(
        refused,
        /reads \$PLANTED_SECRET \(mcpServers\.api\.headers\.Authorization\)/,
        "var",
      );
      assert.doesNotMatch(refused.stderr, /s3cret-value-41/);
      assert.equal(requests.length, 0, "nothing connected before approval");
      // Approved, the header is expanded and sent (the server is no MCP server: exit 2).
      const approved = await repo.cli(["tools"], { ...secret, MAGI_TOOLS_TRUST_CONFIG: "1" });
      assert.equal(approved.code, 2, approved.stderr);
      assert.match(approved.stderr, /MCP server api failed to start/);
      assert.ok(requests.includes("Bearer s3cret-value-41"), JSON.stringify(requests));
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("a symlinked magi-tools.jsonc is not trusted through its target's approval", async () => {
  await cloned(
    (marker: string) => ({ mcpServers: { fx: markingServer(marker) } }),
    async (repo) => {
      // A trusted config elsewhere, and a repo whose magi-tools.jsonc links to it: its relative
      // commands would run in this repo, so the approval of the other path does not count.
      const other = join(repo.dir, "..", "other");
      await Deno.mkdir(other);
      await Deno.rename(join(repo.dir, "magi-tools.jsonc"), join(other, "magi-tools.jsonc"));
      await Deno.symlink(join(other, "magi-tools.jsonc"), join(repo.dir, "magi-tools.jsonc"));
      const trusted = await repo.cli(["trust", join(other, "magi-tools.jsonc")]);
      assert.equal(trusted.code, 0, trusted.stderr);
      assertRefused(await repo.cli(["tools"]), /not trusted yet/, "symlink");
      assert.equal(await exists(repo.marker), false);
    },
  );
});

Deno.test("a config without commands or ${VAR}s needs no approval (an OpenAPI document, no auth)", async () => {
  const config = {
    openapi: {
      tickets: { spec: join(ROOT, "examples", "openapi", "tickets.yaml"), include: ["getTicket"] },
    },
  };
  await cloned(config, async (repo) => {
    const result = await repo.cli(["tools"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(listed(result.stdout), ["getTicket"]);
    assert.equal(await exists(join(repo.xdg, "magi-tools")), false, "no trust store touched");
  });
});

Deno.test("an OpenAPI auth.valueFromEnv is an environment read: it needs approval", async () => {
  const config = {
    openapi: {
      tickets: {
        spec: join(ROOT, "examples", "openapi", "tickets.yaml"),
        include: ["getTicket"],
        auth: { header: "Authorization", valueFromEnv: "HOME_TOKEN" },
      },
    },
  };
  await cloned(config, async (repo) => {
    assertRefused(
      await repo.cli(["tools"]),
      /reads \$HOME_TOKEN \(openapi\.tickets\.auth\.valueFromEnv\)/,
      "auth",
    );
    const approved = await repo.cli(["tools"], { MAGI_TOOLS_TRUST_CONFIG: "1" });
    assert.equal(approved.code, 0, approved.stderr);
    assert.deepEqual(listed(approved.stdout), ["getTicket"]);
  });
});

Deno.test("under the init project's flags the trust store and MAGI_TOOLS_TRUST_CONFIG are readable", async () => {
  // The flags of the generated project's tasks before the config is trusted: `tools
  // --task-flags` derives nothing from an unapproved config, so these are its base flags.
  const flags = taskFlags({ env: [], net: [] });
  assert.ok(flags.some((flag) => flag.startsWith("--allow-env=")), flags.join(" "));
  await cloned(
    (marker: string) => ({ mcpServers: { fx: markingServer(marker) } }),
    async (repo) => {
      const withFlags = (args: string[], env: Record<string, string> = {}) =>
        repo.cli(["--flags", ...flags, "--", ...args], env);
      assertRefused(await withFlags(["tools"]), /: not trusted yet\n/, "init flags");
      assert.equal(await exists(repo.marker), false);
      const trusted = await withFlags(["trust"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      const listing = await withFlags(["tools"]);
      assert.equal(listing.code, 0, listing.stderr);
      assert.deepEqual(listed(listing.stdout), FX_TOOLS);
      assert.equal((await withFlags(["trust", "--revoke"])).code, 0);
      const ci = await withFlags(["tools"], { MAGI_TOOLS_TRUST_CONFIG: "1" });
      assert.equal(ci.code, 0, ci.stderr);
    },
  );
});
