import assert from "node:assert/strict";
import * as runtimeModule from "../../src/runtime/mod.ts";
import { runtime as denoRuntime } from "../../src/runtime/deno/mod.ts";
import { runtime as nodeRuntime } from "../../src/runtime/node/mod.ts";
import type { Runtime } from "../../src/runtime/types.ts";

const ADAPTERS: ReadonlyArray<[string, Runtime]> = [["deno", denoRuntime], ["node", nodeRuntime]];

/** The functions and classes `src/runtime/mod.ts` exports: the names other folders use. */
const PUBLIC_VALUES = [
  "SpawnError",
  "commandArgs",
  "currentDir",
  "deleteEnv",
  "exitProcess",
  "fileInfo",
  "findOnPath",
  "getEnv",
  "getEnvIfGranted",
  "hostName",
  "isAddrInUse",
  "isAlreadyExists",
  "isDirectory",
  "isNotFound",
  "linkFile",
  "listenLoopback",
  "makeDirs",
  "makeTempDir",
  "onInterrupt",
  "openTerminal",
  "osName",
  "processId",
  "readGranted",
  "readStdinText",
  "readTextFile",
  "realPath",
  "reapChild",
  "removeAll",
  "renamePath",
  "runtimeExecutable",
  "runtimeName",
  "runtimeVersions",
  "serveLoopback",
  "setEnv",
  "spawnChild",
  "spawnDetached",
  "stderrIsTerminal",
  "stdinIsTerminal",
  "stdinStream",
  "stdoutIsTerminal",
  "stopSignal",
  "supportsProcessIsolation",
  "terminalSafeJson",
  "terminalText",
  "tryLockFile",
  "userDir",
  "watchDirs",
  "writeGranted",
  "writePrivateTextFile",
  "writeStderrLine",
  "writeStdout",
  "writeTextFile",
];

Deno.test("src/runtime/mod.ts exports the runtime's functions under their names", () => {
  assert.deepEqual(Object.keys(runtimeModule).sort(), PUBLIC_VALUES);
});

Deno.test("the Node adapter provides exactly the Deno adapter's primitives", () => {
  assert.deepEqual(Object.keys(nodeRuntime).sort(), Object.keys(denoRuntime).sort());
  for (const key of Object.keys(denoRuntime) as (keyof Runtime)[]) {
    assert.equal(typeof nodeRuntime[key], typeof denoRuntime[key], key);
  }
});

Deno.test("process isolation and the runtime's name: Deno's adapter and Node's", () => {
  assert.equal(denoRuntime.processIsolation, true);
  assert.equal(nodeRuntime.processIsolation, false);
  assert.equal(denoRuntime.name, "deno");
  assert.equal(nodeRuntime.name, "node");
  assert.equal(runtimeModule.supportsProcessIsolation(), true);
  assert.equal(runtimeModule.runtimeName(), "deno");
  assert.equal(denoRuntime.os, nodeRuntime.os);
  assert.equal(denoRuntime.pid(), nodeRuntime.pid());
  assert.equal(denoRuntime.ppid(), nodeRuntime.ppid());
  assert.equal(denoRuntime.cwd(), nodeRuntime.cwd());
});

Deno.test("both adapters' spawnChild() throw SpawnError for a missing command", () => {
  for (const [, adapter] of ADAPTERS) {
    assert.throws(
      () => adapter.spawnChild("magi-tools-no-such-command", [], {}),
      (error: unknown) =>
        error instanceof runtimeModule.SpawnError &&
        error.message === "Cannot start command: magi-tools-no-such-command",
    );
  }
});

Deno.test("both adapters write a file with a mode, stat it, and remove it", async () => {
  for (const [name, adapter] of ADAPTERS) {
    const dir = await adapter.makeTempDir("magi-tools-parity-");
    try {
      await adapter.makeDirs(`${dir}/a/b`, 0o700);
      await adapter.writeTextFile(`${dir}/a/b/f.txt`, "é\n", 0o600);
      assert.equal(await adapter.readTextFile(`${dir}/a/b/f.txt`), "é\n", name);
      const file = await adapter.stat(`${dir}/a/b/f.txt`);
      assert.deepEqual([file.isFile, file.isDirectory, file.mode! & 0o777], [true, false, 0o600]);
      const folder = await adapter.stat(`${dir}/a`);
      assert.deepEqual([folder.isFile, folder.isDirectory, folder.mode! & 0o777], [
        false,
        true,
        0o700,
      ]);
      await adapter.chmod(`${dir}/a/b/f.txt`, 0o640);
      assert.equal((await adapter.stat(`${dir}/a/b/f.txt`)).mode! & 0o777, 0o640, name);
      assert.equal(await adapter.realPath(`${dir}/a/../a/b`), await Deno.realPath(`${dir}/a/b`));
      await assert.rejects(adapter.stat(`${dir}/missing`), name);
    } finally {
      await adapter.remove(dir);
    }
    await assert.rejects(Deno.stat(dir), name);
  }
});

Deno.test("both adapters rename, link, and tell not-found from already-exists", async () => {
  for (const [name, adapter] of ADAPTERS) {
    const dir = await adapter.makeTempDir("magi-tools-parity-");
    try {
      await adapter.writeTextFile(`${dir}/a.tmp`, "a", 0o600);
      await adapter.rename(`${dir}/a.tmp`, `${dir}/a`);
      assert.equal(await adapter.readTextFile(`${dir}/a`), "a", name);
      const gone = await adapter.stat(`${dir}/a.tmp`).then(() => null, (error) => error);
      assert.deepEqual([adapter.isNotFound(gone), adapter.isAlreadyExists(gone)], [true, false]);
      await adapter.writeTextFile(`${dir}/b.tmp`, "b", 0o600);
      await adapter.rename(`${dir}/b.tmp`, `${dir}/a`);
      assert.equal(await adapter.readTextFile(`${dir}/a`), "b", `${name}: rename replaces`);
      await adapter.link(`${dir}/a`, `${dir}/c`);
      assert.equal(await adapter.readTextFile(`${dir}/c`), "b", name);
      const taken = await adapter.link(`${dir}/a`, `${dir}/c`).then(() => null, (error) => error);
      assert.deepEqual([adapter.isAlreadyExists(taken), adapter.isNotFound(taken)], [true, false]);
      assert.equal(adapter.fileGranted("read", dir), true, name);
      assert.equal(adapter.fileGranted("write"), true, name);
    } finally {
      await adapter.remove(dir);
    }
  }
  assert.deepEqual(Object.keys(denoRuntime.versions()), ["deno", "v8", "typescript"]);
  assert.equal(typeof nodeRuntime.versions().v8, "string");
});

Deno.test("both adapters watch a directory: a new file is seen, close() ends the events", async () => {
  for (const [name, adapter] of ADAPTERS) {
    const dir = await Deno.realPath(await adapter.makeTempDir("magi-tools-parity-"));
    try {
      const watch = adapter.watchDirs([dir], true);
      const seen = (async () => {
        const paths: string[] = [];
        for await (const event of watch) {
          if (event.kind !== "access") paths.push(...event.paths);
          if (paths.includes(`${dir}/new.txt`)) break;
        }
        return paths;
      })();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await adapter.writeTextFile(`${dir}/new.txt`, "x");
      assert.ok((await seen).includes(`${dir}/new.txt`), name);
      const ended = (async () => {
        for await (const _ of watch) { /* drain until closed */ }
      })();
      watch.close();
      await ended;
      assert.throws(() => adapter.watchDirs([`${dir}/missing`], false), name);
    } finally {
      await adapter.remove(dir);
    }
  }
});

Deno.test("both adapters set, read and delete an environment variable", () => {
  for (const [name, adapter] of ADAPTERS) {
    adapter.setEnv("MAGI_TOOLS_PARITY_TEST", name);
    assert.equal(adapter.env("MAGI_TOOLS_PARITY_TEST"), name);
    assert.equal(adapter.envIfGranted("MAGI_TOOLS_PARITY_TEST"), name);
    adapter.deleteEnv("MAGI_TOOLS_PARITY_TEST");
    assert.equal(adapter.env("MAGI_TOOLS_PARITY_TEST"), undefined);
  }
});

Deno.test("the Node adapter's isAddrInUse() recognizes EADDRINUSE only", () => {
  assert.equal(
    nodeRuntime.isAddrInUse(Object.assign(new Error("x"), { code: "EADDRINUSE" })),
    true,
  );
  assert.equal(nodeRuntime.isAddrInUse(new Error("x")), false);
  assert.equal(nodeRuntime.isAddrInUse(null), false);
});

Deno.test("the Node adapter's serveLoopback() says to use listenLoopback", () => {
  assert.throws(() => nodeRuntime.serveLoopback(() => new Response(""), 0), /use listenLoopback/);
});

Deno.test("both adapters' listenLoopback() reject a taken port with an error isAddrInUse() knows", async () => {
  const taken = await runtimeModule.listenLoopback(() => new Response(""));
  try {
    const port = Number(new URL(taken.url).port);
    for (const [name, adapter] of ADAPTERS) {
      const error = await adapter.listenLoopback(() => new Response(""), port, () => {}).then(
        () => null,
        (error: unknown) => error,
      );
      assert.equal(adapter.isAddrInUse(error), true, name);
    }
  } finally {
    await taken.stop();
  }
});

Deno.test("the Deno adapter's listenLoopback() serves the handler on 127.0.0.1", async () => {
  const server = await runtimeModule.listenLoopback((request) =>
    new Response(new URL(request.url).pathname)
  );
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/ping`);
    assert.equal(await response.text(), "/ping");
  } finally {
    await server.stop();
  }
});

Deno.test("the Node adapter's listenLoopback() answers 500 to a failing handler and reports it", async () => {
  const failures: unknown[] = [];
  const server = await nodeRuntime.listenLoopback(
    () => {
      throw new Error("handler broke");
    },
    0,
    (error) => failures.push(error),
  );
  try {
    const response = await fetch(`${server.url}/x`);
    await response.body?.cancel();
    assert.equal(response.status, 500);
    assert.deepEqual(failures.map(String), ["Error: handler broke"]);
  } finally {
    await server.stop();
  }
});

Deno.test("both adapters' listenLoopback() stream a body and cancel it when the client goes away", async () => {
  for (const [, adapter] of ADAPTERS) {
    const cancelled = Promise.withResolvers<void>();
    const server = await adapter.listenLoopback(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start: (controller) => controller.enqueue(new TextEncoder().encode("first\n")),
            cancel: () => cancelled.resolve(),
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
      0,
      () => {},
    );
    try {
      const client = new AbortController();
      // Bounded (a buffering adapter would never answer), not timed: the answer comes at once.
      const response = await fetch(`${server.url}/stream`, {
        signal: AbortSignal.any([client.signal, AbortSignal.timeout(30_000)]),
      });
      const reader = response.body!.getReader();
      // The first chunk arrives while the stream is still open: it was not buffered to the end.
      assert.equal(new TextDecoder().decode((await reader.read()).value), "first\n");
      client.abort();
      await reader.cancel().catch(() => {});
      await cancelled.promise;
    } finally {
      await server.stop();
    }
  }
});
