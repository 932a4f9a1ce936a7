import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, type ToolSpec } from "../../src/tool/define.ts";
import {
  denoFlagsForHost,
  formatToolPermissions,
  permissionFlags,
  toolSandboxInfo,
} from "../../src/sandbox/permissions.ts";

function tool(extra: Partial<ToolSpec<z.ZodObject>> = {}) {
  return defineTool({
    name: extra.name ?? "t",
    description: "Test tool.",
    input: z.object({}),
    effect: "read",
    run: () => "",
    ...extra,
  });
}

const FLAG_ROWS: [string, Parameters<typeof permissionFlags>[0], string[]][] = [
  ["nothing declared", undefined, []],
  ["false and empty lists", { read: false, net: [] }, []],
  ["relative paths resolved against cwd", { read: [".", "data/x.txt"] }, [
    "--allow-read=/work,/work/data/x.txt",
  ]],
  ["absolute paths kept", { write: ["/tmp/out"] }, ["--allow-write=/tmp/out"]],
  ["hosts, variables, commands as given", {
    net: ["127.0.0.1:8765"],
    env: ["A", "B"],
    run: ["git"],
  }, ["--allow-net=127.0.0.1:8765", "--allow-env=A,B", "--allow-run=git"]],
  ["a run entry with a slash is a path", { run: ["./bin/tool"] }, ["--allow-run=/work/bin/tool"]],
  ["true is the bare flag", { net: true, sys: true }, ["--allow-net", "--allow-sys"]],
];

for (const [what, permissions, flags] of FLAG_ROWS) {
  Deno.test(`permissionFlags(): ${what}`, () => {
    assert.deepEqual(permissionFlags(permissions, "/work"), flags);
  });
}

Deno.test("defineTool() refuses true for read, write, env, run and ffi of a process-isolated tool", () => {
  for (const key of ["read", "write", "env", "run", "ffi"]) {
    assert.throws(
      () => tool({ permissions: { [key]: true } }),
      new RegExp(`^TypeError: Tool permissions\\.${key} must list what it allows`),
    );
  }
  assert.equal(tool({ permissions: { net: true, sys: true } }).permissions?.net, true);
  assert.equal(tool({ isolation: "inline", permissions: { read: true } }).permissions?.read, true);
});

Deno.test("defineTool() refuses a permission entry with a comma and memoryMb on an inline tool", () => {
  assert.throws(() => tool({ permissions: { read: ["a,b"] } }), /must not contain a comma: t$/);
  assert.throws(
    () => tool({ isolation: "inline", memoryMb: 64 }),
    /^TypeError: Tool memoryMb needs process isolation, not inline: t$/,
  );
});

Deno.test("denoFlagsForHost() adds the union of inline tools' permissions, not isolated ones'", () => {
  const registry = {
    tools: [
      { tool: tool({ name: "a", isolation: "inline", permissions: { read: ["x"], env: ["A"] } }) },
      { tool: tool({ name: "b", isolation: "inline", permissions: { read: ["y", "x"] } }) },
      { tool: tool({ name: "c", permissions: { net: ["example.com:443"], env: ["SECRET"] } }) },
    ],
  };
  assert.deepEqual(
    denoFlagsForHost(registry, {
      cwd: "/w",
      toolDirs: ["tools"],
      runCommands: ["magi-code"],
      denoPath: "/bin/deno",
      npmCacheDir: "/cache/npm",
    }),
    [
      "--no-prompt",
      "--allow-read=/w/tools,/cache/npm,/w/x,/w/y",
      "--allow-env=A",
      "--allow-run=magi-code,/bin/deno",
    ],
  );
});

Deno.test("denoFlagsForHost() spawns deno for any tool (modules are described in a child first); true wins", () => {
  const registry = {
    tools: [
      { tool: tool({ name: "a", isolation: "inline", permissions: { net: ["h:1"] } }) },
      { tool: tool({ name: "b", isolation: "inline", permissions: { net: true } }) },
    ],
  };
  assert.deepEqual(denoFlagsForHost(registry, { cwd: "/w", denoPath: "/bin/deno" }), [
    "--no-prompt",
    "--allow-net",
    "--allow-run=/bin/deno",
  ]);
  assert.deepEqual(denoFlagsForHost({ tools: [] }, { cwd: "/w", denoPath: "/bin/deno" }), [
    "--no-prompt",
  ]);
});

Deno.test("denoFlagsForHost() adds nothing for memoryMb (the launcher's data limit needs no /proc)", () => {
  const registry = { tools: [{ tool: tool({ name: "a", memoryMb: 128 }) }] };
  assert.deepEqual(denoFlagsForHost(registry, { cwd: "/w", denoPath: "/bin/deno" }), [
    "--no-prompt",
    "--allow-run=/bin/deno",
  ]);
});

Deno.test("formatToolPermissions() renders isolation, memory and each declared kind", () => {
  assert.equal(
    formatToolPermissions(tool({ memoryMb: 128, permissions: { read: ["."], net: true } })),
    "process, memory 128 MiB; read=.; net=all",
  );
  assert.equal(
    formatToolPermissions(tool({ isolation: "inline" })),
    "inline (host permissions); no permissions",
  );
  assert.deepEqual(toolSandboxInfo(tool({ permissions: { env: ["A"], run: false } })), {
    isolation: "process",
    memoryMb: null,
    permissions: { env: ["A"] },
  });
});

Deno.test("hostDenoFlags() fills in the running Deno executable for isolated tools", async () => {
  const { hostDenoFlags } = await import("../../src/sandbox/mod.ts");
  const flags = hostDenoFlags({ tools: [{ tool: tool() }] }, { cwd: "/w", runCommands: ["agent"] });
  assert.deepEqual(flags, ["--no-prompt", `--allow-run=agent,${Deno.execPath()}`]);
});
