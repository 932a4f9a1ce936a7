/**
 * The kernel layer (Landlock) black-box, through `run` against the reference
 * backend: hostile set-ups made here (symlinks out of a read and a write
 * scope, a `..` symlink chain, subprocesses allowed by `run`, hard links)
 * must fail with nothing read or changed outside, while the same operations
 * inside the declared scope still work. Skipped where the kernel has no
 * usable Landlock (the level tests then cover `deno`).
 */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, ofType, one, type Rec, ROOT, runCli } from "./_cli.ts";
import { probeKernelSandbox } from "../../src/sandbox/kernel.ts";
import { probeProcessLimits } from "../../src/sandbox/containment.ts";

const KERNEL_TOOLS = `${ROOT}tests/e2e/fixtures/kernel_tools`;
const WITH_SCENARIO = { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/kernel.jsonc` };
const kernel = await probeKernelSandbox();
const ignore = !kernel.available;

/** A working directory with a read scope `data`, a write scope `out` and hostile links. */
interface Tree {
  readonly root: string;
  readonly secret: string;
}

const VICTIM = "VICTIM-ORIGINAL";

async function hostileTree(): Promise<Tree> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-tools-e2e-kernel-" }));
  const secret = `TOP-SECRET-${crypto.randomUUID()}`;
  await Deno.writeTextFile(`${root}/secret.txt`, secret);
  await Deno.writeTextFile(`${root}/victim.txt`, VICTIM);
  await Deno.mkdir(`${root}/data/sub`, { recursive: true });
  await Deno.mkdir(`${root}/out/tree/deeper`, { recursive: true });
  await Deno.writeTextFile(`${root}/out/tree/deeper/old.txt`, "OLD");
  await Deno.writeTextFile(`${root}/data/inside.txt`, "INSIDE-OK");
  await Deno.writeTextFile(`${root}/data/sub/inner.txt`, "INNER-OK");
  // A repository can ship every one of these.
  await Deno.symlink(`${root}/secret.txt`, `${root}/data/link`);
  await Deno.symlink("..", `${root}/data/up`);
  await Deno.symlink("hop2", `${root}/data/hop1`);
  await Deno.symlink("../secret.txt", `${root}/data/hop2`);
  await Deno.symlink("../victim.txt", `${root}/out/link`);
  await Deno.symlink("..", `${root}/out/up`);
  return { root, secret };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

function run(prompt: string, cwd: string, ...flags: string[]): string[] {
  return ["run", "--tools", KERNEL_TOOLS, "--cwd", cwd, "--approve", "allow", ...flags, prompt];
}

/** `tool.result` records in call order (the scenario calls one at a time). */
function results(records: Rec[]): { outcome: unknown; error_code: unknown }[] {
  return ofType(records, "tool.result").map((r) => ({
    outcome: r.outcome,
    error_code: r.error_code,
  }));
}

const OK = { outcome: "success", error_code: null };
const DENIED = { outcome: "error", error_code: "permission_denied" };
const FAILED = { outcome: "error", error_code: "tool_failed" };

Deno.test({
  name: "kernel sandbox: symlinks, a .. chain and hard links out of read/write scopes are denied",
  ignore,
  fn: async () => {
    const tree = await hostileTree();
    try {
      const result = await runCli(run("FS_HOSTILE", tree.root, "--require-kernel-sandbox"), {
        env: WITH_SCENARIO,
      });
      assert.equal(result.code, 0, result.stderr);
      const ready = one(result.records, "host.ready");
      assert.deepEqual(
        (ready.tools as { name: string; sandbox: string }[]).map((t) => [t.name, t.sandbox]),
        [["scoped_fs", "kernel+deno"], ["scoped_net", "kernel+deno"], [
          "scoped_run",
          "kernel+deno",
        ]],
      );
      assert.deepEqual(results(result.records), [
        OK, // data/inside.txt
        DENIED, // data/link → ../secret.txt (absolute symlink)
        DENIED, // data/up/secret.txt (directory symlink to ..)
        DENIED, // data/hop1 → hop2 → ../secret.txt
        OK, // data/sub/inner.txt
        OK, // out/new.txt
        DENIED, // out/link → ../victim.txt
        DENIED, // out/up/victim.txt
        DENIED, // hard link of secret.txt into out/
        DENIED, // dlopen: the tool process has no FFI (the launcher's ended with it)
        OK, // remove out/tree recursively
      ]);
      const text = String(one(result.records, "message").text);
      assert.match(text, /scoped_fs → INSIDE-OK/);
      assert.match(text, /scoped_fs → INNER-OK/);
      assert.ok(!result.stdout.includes(tree.secret), "the secret reached stdout");
      assert.ok(!result.stderr.includes(tree.secret), "the secret reached stderr");
      assert.equal(await Deno.readTextFile(`${tree.root}/out/new.txt`), "WRITTEN-INSIDE");
      assert.equal(await Deno.readTextFile(`${tree.root}/victim.txt`), VICTIM);
      assert.equal(await exists(`${tree.root}/out/hard`), false);
      assert.equal(await exists(`${tree.root}/out/tree`), false);
    } finally {
      await Deno.remove(tree.root, { recursive: true });
    }
  },
});

Deno.test({
  name: "kernel sandbox: programs allowed by run cannot read or write outside the scope",
  ignore,
  fn: async () => {
    const tree = await hostileTree();
    try {
      const result = await runCli(run("RUN_HOSTILE", tree.root), { env: WITH_SCENARIO });
      assert.equal(result.code, 0, result.stderr);
      const actual = results(result.records);
      // Below ABI 6 the kernel does not scope signals: only the rest is asserted there. In a
      // PID namespace (docs/tools.md) PID 1 is the tool process itself, and nothing outside
      // the namespace has a PID there: signalling it succeeds, and reaches nothing else.
      const namespaced = (await probeProcessLimits()).descendants === "pid_namespace";
      const signal = namespaced ? OK : (kernel.abi ?? 0) >= 6 ? FAILED : actual[7];
      assert.deepEqual(actual, [
        OK, // cat data/inside.txt
        FAILED, // cat secret.txt
        FAILED, // cat data/link
        FAILED, // sh: cat data/up/secret.txt
        FAILED, // sh: echo > victim.txt
        FAILED, // sh: echo > out/link (→ ../victim.txt)
        FAILED, // sh: ln secret.txt out/hard && cat out/hard
        signal, // sh: kill -0 1 (signals stay inside the sandbox, ABI 6+; EPERM anyway unless root)
        OK, // sh: echo > out/sh.txt && cat data/inside.txt
      ]);
      const text = String(one(result.records, "message").text);
      assert.match(text, /scoped_run → INSIDE-OK/);
      assert.match(text, /Permission denied/);
      assert.ok(!result.stdout.includes(tree.secret), "the secret reached stdout");
      assert.ok(!result.stderr.includes(tree.secret), "the secret reached stderr");
      assert.equal(await Deno.readTextFile(`${tree.root}/victim.txt`), VICTIM);
      assert.equal(await Deno.readTextFile(`${tree.root}/out/sh.txt`), "SH-INSIDE\n");
      assert.equal(await exists(`${tree.root}/out/hard`), false);
    } finally {
      await Deno.remove(tree.root, { recursive: true });
    }
  },
});

Deno.test({
  name: "kernel sandbox: a program allowed by run connects only to declared TCP ports (ABI 4+)",
  ignore: ignore || (kernel.abi ?? 0) < 4,
  fn: async () => {
    const listeners = [18237, 18238].map((port) => Deno.listen({ hostname: "127.0.0.1", port }));
    const accepting = listeners.map(async (listener) => {
      for await (const conn of listener) conn.close();
    });
    const dir = await Deno.makeTempDir({ prefix: "magi-tools-e2e-kernel-net-" });
    try {
      const result = await runCli(run("NET_PORTS", dir), { env: WITH_SCENARIO });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(results(result.records), [OK, FAILED]);
      assert.match(String(one(result.records, "message").text), /scoped_net → connected/);
    } finally {
      for (const listener of listeners) listener.close();
      await Promise.allSettled(accepting);
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("--no-kernel-sandbox: level deno, and a symlink out of the read scope is followed", async () => {
  // What the kernel layer is for: Deno checks the path as given, not where a symlink points.
  const tree = await hostileTree();
  try {
    const result = await runCli(run("FS_HOSTILE", tree.root, "--no-kernel-sandbox"), {
      env: WITH_SCENARIO,
    });
    assert.equal(result.code, 0, result.stderr);
    const ready = one(result.records, "host.ready");
    for (const tool of ready.tools as { sandbox: string }[]) assert.equal(tool.sandbox, "deno");
    assert.deepEqual(results(result.records).slice(1, 2), [OK]);
    assert.ok(result.stdout.includes(tree.secret));
  } finally {
    await Deno.remove(tree.root, { recursive: true });
  }
});

Deno.test("--require-kernel-sandbox fails startup (exit 2) naming each tool without it and why", async () => {
  const result = await runCli(["run", "--tools", FIXTURE_TOOLS, "--require-kernel-sandbox", "hi"]);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /--require-kernel-sandbox: \d+ tool\(s\) would run without the kernel sandbox: .*counter \(none: isolation: inline \(it runs in the host process\)\)/,
  );
  if (!kernel.available) assert.match(result.stderr, new RegExp(`deno: `));
});

Deno.test("--require-kernel-sandbox with --no-kernel-sandbox is a usage error", async () => {
  const result = await runCli(
    ["run", "--require-kernel-sandbox", "--no-kernel-sandbox", "hi"],
    { raw: true },
  );
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--require-kernel-sandbox and --no-kernel-sandbox conflict/);
});
