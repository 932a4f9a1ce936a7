import assert from "node:assert/strict";
import { join } from "node:path";
import {
  configKey,
  hashConfigText,
  readTrustStore,
  writeTrustStore,
} from "../../src/config/trust_store.ts";
import { ConfigError } from "../../src/config/errors.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-tools-trust-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("hashConfigText() is the SHA-256 of the UTF-8 bytes, lowercase hex", async () => {
  assert.equal(
    await hashConfigText(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assert.notEqual(await hashConfigText("{}"), await hashConfigText("{} "));
});

Deno.test("writeTrustStore() creates the directory 0700 and the file 0600; readTrustStore() reads it back", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "config", "magi-tools", "trusted-configs.json");
    assert.deepEqual(await readTrustStore(file), {}, "a missing store is empty");
    const records = { "/p/magi-tools.jsonc": { sha256: "a".repeat(64), trustedAt: "t" } };
    await writeTrustStore(file, records);
    assert.deepEqual(await readTrustStore(file), records);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(join(dir, "config", "magi-tools"))).mode! & 0o777, 0o700);
    // Rewritten through a rename: no temporary file is left.
    await writeTrustStore(file, {});
    assert.deepEqual([...Deno.readDirSync(join(dir, "config", "magi-tools"))].map((e) => e.name), [
      "trusted-configs.json",
    ]);
  });
});

Deno.test("readTrustStore() rejects a file that is not a version 1 store, naming it", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "trusted-configs.json");
    for (
      const [text, message] of [
        ["{", /Trust store is not JSON: .*trusted-configs\.json/],
        ['{"version":2,"configs":{}}', /Trust store is not a version 1 store/],
        ['{"version":1,"configs":{"/p":{"sha256":"x"}}}', /has no valid sha256: .*: \/p/],
      ] as const
    ) {
      await Deno.writeTextFile(file, text);
      await assert.rejects(readTrustStore(file), (error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, message);
        return true;
      });
    }
  });
});

Deno.test("configKey() resolves the directory, not the file: a symlinked config keeps its own path", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(join(dir, "real"));
    await Deno.symlink(join(dir, "real"), join(dir, "link"));
    await Deno.writeTextFile(join(dir, "real", "target.jsonc"), "{}");
    await Deno.symlink(join(dir, "real", "target.jsonc"), join(dir, "real", "magi-tools.jsonc"));
    assert.equal(
      await configKey(join(dir, "link", "magi-tools.jsonc")),
      join(dir, "real", "magi-tools.jsonc"),
    );
    // A directory that is gone: the path as written, absolute.
    assert.equal(await configKey(join(dir, "gone", "x.jsonc")), join(dir, "gone", "x.jsonc"));
  });
});

Deno.test("a record's destinations are kept; a record without them reads without them; bad ones are named", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "trusted-configs.json");
    const records = {
      "/a/magi-tools.jsonc": {
        sha256: "0".repeat(64),
        trustedAt: "t",
        destinations: { "openapi.api": "http://127.0.0.1:8080/v1" },
      },
      "/b/magi-tools.jsonc": { sha256: "1".repeat(64), trustedAt: "t" },
    };
    await writeTrustStore(file, records);
    assert.deepEqual(await readTrustStore(file), records);
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        version: 1,
        configs: { "/c/m.jsonc": { sha256: "2".repeat(64), destinations: { "openapi.x": 1 } } },
      }),
    );
    await assert.rejects(
      readTrustStore(file),
      (error: Error) =>
        error instanceof ConfigError &&
        error.message === `Trust store entry has invalid destinations: ${file}: /c/m.jsonc`,
    );
  });
});
