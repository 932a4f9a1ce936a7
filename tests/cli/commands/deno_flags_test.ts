import assert from "node:assert/strict";
import { z } from "zod";
import type { AgentCommand } from "../../../src/run/agent.ts";
import { cliDenoFlags } from "../../../src/cli/commands/_deno_flags.ts";
import { defineTool, type Tool } from "../../../src/tool/define.ts";

function tool(name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}): Tool {
  return defineTool(
    {
      name,
      description: `Tool ${name}.`,
      input: z.strictObject({}),
      effect: "read",
      run: () => "ok",
      ...extra,
    } as Parameters<typeof defineTool>[0],
  );
}

const FLAG_AGENT: AgentCommand = {
  command: "/opt/magi/magi-code",
  args: ["serve", "--stdio"],
  source: "flag",
  label: "magi-code",
};

Deno.test("cliDenoFlags() grants the tool dirs, the backend, deno and the CLI's env only", () => {
  const registry = { tools: [{ tool: tool("a", { permissions: { read: ["."] } }) }] };
  const flags = cliDenoFlags(registry, {
    toolDirs: ["tools"],
    agent: FLAG_AGENT,
    cwd: "/work",
    path: "/usr/bin",
    setsid: null,
    containment: [],
  });
  assert.equal(flags[0], "--no-prompt");
  assert.ok(flags.includes("--allow-read=/work/tools"), flags.join(" "));
  assert.ok(flags.includes("--allow-env=MAGI_CODE_AGENT,PATH"), flags.join(" "));
  const run = flags.find((f) => f.startsWith("--allow-run="));
  assert.ok(run?.startsWith("--allow-run=/opt/magi/magi-code,"), flags.join(" "));
  // The isolated tool's own read permission stays in its process.
  assert.ok(!flags.some((f) => f.includes("/work,") || f.endsWith("=/work")), flags.join(" "));
  assert.ok(!flags.some((f) => /^--allow-(write|net|sys|ffi)/.test(f)), flags.join(" "));
});

Deno.test("cliDenoFlags() grants reading the magi-code candidates when the backend is looked up on PATH", () => {
  const reference: AgentCommand = { ...FLAG_AGENT, source: "reference" };
  const flags = cliDenoFlags({ tools: [] }, {
    toolDirs: ["/t"],
    agent: reference,
    path: "/usr/local/bin::/bad,dir:/usr/bin",
    setsid: null,
    containment: [],
  });
  assert.ok(
    flags.includes("--allow-read=/t,/usr/local/bin/magi-code,/usr/bin/magi-code"),
    flags.join(" "),
  );
});

Deno.test("cliDenoFlags() merges inline tools' permissions into the host's, keeping 'all' as all", () => {
  const registry = {
    tools: [
      { tool: tool("i", { isolation: "inline", permissions: { env: true, net: ["x:1"] } }) },
    ],
  };
  const flags = cliDenoFlags(registry, { toolDirs: ["/t"], agent: FLAG_AGENT, path: "" });
  assert.ok(flags.includes("--allow-env"), flags.join(" "));
  assert.ok(flags.includes("--allow-net=x:1"), flags.join(" "));
  assert.ok(!flags.some((f) => f.startsWith("--allow-env=")), flags.join(" "));
});

Deno.test("cliDenoFlags() grants setsid and reading what it starts when a setsid exists", () => {
  const registry = { tools: [{ tool: tool("a") }] };
  const flags = cliDenoFlags(registry, {
    toolDirs: ["/t"],
    agent: FLAG_AGENT,
    path: "/usr/bin",
    setsid: "/usr/bin/setsid",
    containment: [],
    denoPath: "/opt/deno",
  });
  assert.ok(
    flags.includes("--allow-run=/opt/magi/magi-code,/opt/deno,/usr/bin/setsid"),
    flags.join(" "),
  );
  assert.ok(
    flags.includes("--allow-read=/t,/usr/bin/setsid,/opt/magi/magi-code,/opt/deno"),
    flags.join(" "),
  );
});

Deno.test("cliDenoFlags() with setsid grants reading a bare backend command's PATH candidates, and deno only when there are tools", () => {
  const bare: AgentCommand = { ...FLAG_AGENT, command: "magi-code" };
  // Even an all-inline tool set runs deno once: every module is described in a child first.
  const inline = { tools: [{ tool: tool("i", { isolation: "inline" }) }] };
  const flags = cliDenoFlags(inline, {
    toolDirs: ["/t"],
    agent: bare,
    path: "/a:/b,c:/d",
    setsid: "/bin/setsid",
    containment: [],
    denoPath: "/opt/deno",
  });
  assert.ok(flags.includes("--allow-run=magi-code,/opt/deno,/bin/setsid"), flags.join(" "));
  assert.ok(
    flags.includes("--allow-read=/t,/bin/setsid,/a/magi-code,/d/magi-code,/opt/deno"),
    flags.join(" "),
  );
  const none = cliDenoFlags({ tools: [] }, {
    toolDirs: ["/t"],
    agent: bare,
    path: "/a:/b,c:/d",
    setsid: "/bin/setsid",
    containment: [],
    denoPath: "/opt/deno",
  });
  assert.ok(none.includes("--allow-run=magi-code,/bin/setsid"), none.join(" "));
});

Deno.test("cliDenoFlags() adds nothing for setsid when there is none", () => {
  const flags = cliDenoFlags({ tools: [] }, {
    toolDirs: ["/t"],
    agent: FLAG_AGENT,
    path: "",
    setsid: null,
    containment: [],
  });
  assert.ok(!flags.join(" ").includes("setsid"), flags.join(" "));
});
