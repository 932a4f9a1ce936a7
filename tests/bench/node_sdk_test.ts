import assert from "node:assert/strict";
import {
  checkNodeVersion,
  ensureNodeSdk,
  installMatches,
  lockedVersions,
  NODE_DIR,
  NodeSdkError,
  npmCiArgs,
  SDK_PACKAGE,
} from "../../bench/node_sdk.ts";

const LOCK = JSON.stringify({
  name: "x",
  lockfileVersion: 3,
  packages: {
    "": { dependencies: { [SDK_PACKAGE]: "1.32.2" } },
    [`node_modules/${SDK_PACKAGE}`]: { version: "1.32.2" },
    "node_modules/zod": { version: "4.6.7" },
  },
});

async function packageDir(lock: string | null, hidden: string | null): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "magi-bench-node-" });
  if (lock !== null) await Deno.writeTextFile(`${dir}/package-lock.json`, lock);
  if (hidden !== null) {
    await Deno.mkdir(`${dir}/node_modules`);
    await Deno.writeTextFile(`${dir}/node_modules/.package-lock.json`, hidden);
  }
  return dir;
}

/** A stand-in for npm: records its arguments, then runs `body` (sh). */
async function fakeNpm(dir: string, body: string): Promise<string> {
  const path = `${dir}/fake-npm.sh`;
  await Deno.writeTextFile(path, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/npm-args"\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test("lockedVersions() lists every installed package's version, not the root", () => {
  const versions = lockedVersions(LOCK, "package-lock.json");
  assert.deepEqual([...versions], [
    [`node_modules/${SDK_PACKAGE}`, "1.32.2"],
    ["node_modules/zod", "4.6.7"],
  ]);
});

Deno.test("lockedVersions() names the file and the entry at fault", () => {
  assert.throws(
    () => lockedVersions("{", "a/package-lock.json"),
    /^TypeError: Not JSON: a\/package-lock\.json/,
  );
  assert.throws(() => lockedVersions("{}", "b.json"), /no "packages" object: b\.json/);
  assert.throws(
    () => lockedVersions('{"packages":{"node_modules/zod":{}}}', "c.json"),
    /no version: c\.json: packages\["node_modules\/zod"\]/,
  );
});

Deno.test("installMatches() needs the same packages at the same versions", () => {
  const pinned = lockedVersions(LOCK, "lock");
  assert.equal(installMatches(pinned, new Map(pinned)), true);
  assert.equal(installMatches(pinned, null), false);
  assert.equal(installMatches(pinned, new Map([...pinned].slice(1))), false);
  assert.equal(
    installMatches(pinned, new Map([...pinned, ["node_modules/extra", "1.0.0"]])),
    false,
  );
  assert.equal(
    installMatches(pinned, new Map([...pinned].map(([k]) => [k, "0.0.1"] as [string, string]))),
    false,
  );
});

Deno.test("ensureNodeSdk() does not run npm when node_modules matches the lockfile", async () => {
  const dir = await packageDir(LOCK, LOCK);
  try {
    const version = await ensureNodeSdk({
      dir,
      npm: `${dir}/no-such-npm`,
      denoSdkVersion: "1.32.2",
    });
    assert.equal(version, "1.32.2");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureNodeSdk() runs npm ci when node_modules is missing or stale", async () => {
  for (const hidden of [null, LOCK.replace('"4.6.7"', '"4.0.0"')]) {
    const dir = await packageDir(LOCK, hidden);
    try {
      // The stand-in installs by writing npm's hidden lockfile, as npm ci does.
      const npm = await fakeNpm(
        dir,
        `mkdir -p "${dir}/node_modules" && cp "${dir}/package-lock.json" "${dir}/node_modules/.package-lock.json"`,
      );
      const lines: string[] = [];
      const version = await ensureNodeSdk({
        dir,
        npm,
        denoSdkVersion: "1.32.2",
        progress: (line) => lines.push(line),
      });
      assert.equal(version, "1.32.2");
      const args = (await Deno.readTextFile(`${dir}/npm-args`)).trimEnd().split("\n");
      assert.deepEqual(args, npmCiArgs(`${dir}/`));
      assert.deepEqual(args, [
        "ci",
        "--prefix",
        `${dir}/`,
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
      ]);
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /^installing the Node\.js SDK column: .*fake-npm\.sh ci --prefix/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("ensureNodeSdk() fails with npm's exit code and the end of its stderr", async () => {
  const dir = await packageDir(LOCK, null);
  try {
    const npm = await fakeNpm(dir, "echo 'npm error code E404' >&2\nexit 3");
    await assert.rejects(
      ensureNodeSdk({ dir, npm, denoSdkVersion: "1.32.2" }),
      (error: unknown) =>
        error instanceof NodeSdkError &&
        /^npm failed \(exit 3\) installing the Node\.js SDK column: .*fake-npm\.sh ci --prefix .*\nnpm error code E404$/
          .test(error.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureNodeSdk() says so when npm cannot be run", async () => {
  const dir = await packageDir(LOCK, null);
  try {
    await assert.rejects(
      ensureNodeSdk({ dir, npm: `${dir}/no-such-npm`, denoSdkVersion: "1.32.2" }),
      (error: unknown) =>
        error instanceof NodeSdkError &&
        /^Cannot run npm for the Node\.js SDK column: .*no-such-npm ci --prefix/.test(
          error.message,
        ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureNodeSdk() fails when npm ci leaves a tree unlike the lockfile", async () => {
  const dir = await packageDir(LOCK, null);
  try {
    const npm = await fakeNpm(dir, "exit 0");
    await assert.rejects(
      ensureNodeSdk({ dir, npm, denoSdkVersion: "1.32.2" }),
      (error: unknown) =>
        error instanceof NodeSdkError &&
        /^npm ci left .*\.package-lock\.json different from .*package-lock\.json$/.test(
          error.message,
        ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureNodeSdk() refuses an SDK version other than the Deno column's", async () => {
  const dir = await packageDir(LOCK, LOCK);
  try {
    await assert.rejects(
      ensureNodeSdk({ dir, npm: `${dir}/no-such-npm`, denoSdkVersion: "1.33.0" }),
      (error: unknown) =>
        error instanceof NodeSdkError &&
        error.message.includes("is 1.32.2") && error.message.includes("Deno column's is 1.33.0"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureNodeSdk() names a missing lockfile", async () => {
  const dir = await packageDir(null, null);
  try {
    await assert.rejects(
      ensureNodeSdk({ dir, denoSdkVersion: "1.32.2" }),
      (error: unknown) =>
        error instanceof NodeSdkError &&
        error.message === `Missing lockfile: ${dir}/package-lock.json`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bench/node pins exact versions and its lockfile agrees with package.json", async () => {
  const manifest = JSON.parse(await Deno.readTextFile(`${NODE_DIR}package.json`)) as {
    dependencies: Record<string, string>;
  };
  const lockText = await Deno.readTextFile(`${NODE_DIR}package-lock.json`);
  const lock = JSON.parse(lockText) as {
    packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
  };
  assert.deepEqual(lock.packages[""]?.dependencies, manifest.dependencies);
  const versions = lockedVersions(lockText, "bench/node/package-lock.json");
  for (const [name, range] of Object.entries(manifest.dependencies)) {
    assert.match(range, /^\d+\.\d+\.\d+$/, `${name} is pinned to one version`);
    assert.equal(versions.get(`node_modules/${name}`), range, name);
  }
  assert.equal(manifest.dependencies[SDK_PACKAGE], "1.32.2");
});

Deno.test("checkNodeVersion() accepts a Node.js version and names anything else", () => {
  checkNodeVersion("v20.20.2\n");
  checkNodeVersion("v22.1.0");
  for (
    const output of [
      "not installed",
      "deno 2.9.6 (stable, release, x86_64-unknown-linux-gnu)\nv8 15",
    ]
  ) {
    assert.throws(
      () => checkNodeVersion(output),
      (error: unknown) =>
        error instanceof NodeSdkError &&
        error.message ===
          `node (Node.js) is required for the MCP SDK column on Node.js: \`node --version\` gave ${
            JSON.stringify(output.split("\n")[0])
          }`,
    );
  }
});
