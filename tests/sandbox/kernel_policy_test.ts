import assert from "node:assert/strict";
import {
  configCandidates,
  kernelPolicy,
  kernelSupportFromAbi,
  kernelUnavailable,
  MIN_LANDLOCK_ABI,
  netPorts,
  sandboxLevel,
  weakerLevelReason,
} from "../../src/sandbox/kernel_policy.ts";
import { kernelRequirementError } from "../../src/run/kernel_sandbox.ts";
import type { ToolInfo } from "../../src/tool/define.ts";

const CONTEXT = {
  cwd: "/work",
  denoPath: "/opt/deno/bin/deno",
  moduleFiles: ["/work/tools/t.ts", "/work/tools/_helpers.ts"],
  packageDirs: ["/pkg/src/"],
};

Deno.test("kernelPolicy(): declared read/write exactly, relative entries resolved; Deno's needs added", () => {
  const policy = kernelPolicy({ read: ["data", "/etc/app.conf"], write: ["out"] }, CONTEXT);
  for (const path of ["/work/data", "/etc/app.conf", ...CONTEXT.moduleFiles, "/pkg/src/"]) {
    assert.ok(policy.read.includes(path), path);
  }
  assert.deepEqual(policy.write, ["/work/out"]);
  assert.ok(policy.exec.includes("/opt/deno/bin/deno"));
  assert.ok(policy.read.includes("/proc/self/maps"));
  assert.ok(!policy.read.some((path) => path === "/proc" || path === "/proc/self"));
  assert.ok(!policy.read.includes("/work"), "the working directory itself is not granted");
  assert.deepEqual(policy.devices, ["/dev/null"]);
  assert.deepEqual(policy.programs, []);
  assert.equal(policy.minAbi, MIN_LANDLOCK_ABI);
  // No net declared: every TCP connect and bind is denied where the kernel can say so.
  assert.deepEqual(policy.tcpPorts, []);
  // Without run, no system program is executable.
  assert.ok(!policy.exec.includes("/usr"));
});

Deno.test("kernelPolicy(): run makes system programs executable, resolves names on PATH later", () => {
  const policy = kernelPolicy({ run: ["git", "./bin/tool"] }, CONTEXT);
  assert.deepEqual(policy.programs, ["git"]);
  assert.ok(policy.exec.includes("/work/bin/tool"));
  for (const dir of ["/usr", "/bin"]) assert.ok(policy.exec.includes(dir), dir);
  assert.deepEqual(policy.write, []);
});

Deno.test("kernelPolicy(): net adds name resolution files; ffi libraries are readable", () => {
  const policy = kernelPolicy({ net: ["127.0.0.1:8765"], ffi: ["lib/x.so"] }, CONTEXT);
  assert.ok(policy.read.includes("/etc/resolv.conf"));
  assert.ok(policy.read.includes("/work/lib/x.so"));
  assert.deepEqual(policy.tcpPorts, [8765]);
});

Deno.test("netPorts(): ports of host:port entries; null when a grant has no port", () => {
  assert.deepEqual(netPorts(undefined), []);
  assert.deepEqual(netPorts(false), []);
  assert.deepEqual(netPorts(["a.example:443", "127.0.0.1:80", "[::1]:443"]), [80, 443]);
  assert.equal(netPorts(true), null);
  assert.equal(netPorts(["example.com"]), null);
  assert.equal(netPorts(["[::1]"]), null);
  assert.equal(netPorts(["127.0.0.1:99999"]), null);
});

Deno.test("configCandidates(): Deno's config and lock files in a directory and its ancestors", () => {
  const files = configCandidates("/a/b");
  assert.ok(files.includes("/a/b/deno.json"));
  assert.ok(files.includes("/a/deno.lock"));
  assert.ok(files.includes("/package.json"));
});

Deno.test("kernelSupportFromAbi(): usable from ABI 3 (truncate), with a reason below", () => {
  assert.equal(kernelSupportFromAbi(7).available, true);
  assert.equal(kernelSupportFromAbi(3).reason, null);
  assert.match(kernelSupportFromAbi(2).reason!, /ABI 2 is older than 3/);
  assert.equal(kernelSupportFromAbi(2).available, false);
  assert.match(kernelSupportFromAbi(null).reason!, /no Landlock/);
});

Deno.test("sandboxLevel() and --require-kernel-sandbox: inline is none, process is kernel+deno or deno", () => {
  const on = kernelSupportFromAbi(7);
  const off = kernelUnavailable("switched off with --no-kernel-sandbox");
  const process = { name: "p" } as ToolInfo;
  const inline = { name: "i", isolation: "inline" } as ToolInfo;
  assert.equal(sandboxLevel(process, on), "kernel+deno");
  assert.equal(sandboxLevel(process, off), "deno");
  assert.equal(sandboxLevel(inline, on), "none");
  assert.equal(sandboxLevel(process, on, false), "none");
  assert.equal(weakerLevelReason(process, on), null);
  assert.equal(kernelRequirementError([{ tool: process }], on), null);
  assert.equal(
    kernelRequirementError([{ tool: process }, { tool: inline }], off),
    "--require-kernel-sandbox: 2 tool(s) would run without the kernel sandbox: " +
      "p (deno: switched off with --no-kernel-sandbox); " +
      "i (none: isolation: inline (it runs in the host process))",
  );
});
