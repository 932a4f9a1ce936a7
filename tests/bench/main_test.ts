import assert from "node:assert/strict";

const MAIN = new URL("../../bench/main.ts", import.meta.url).pathname;

async function which(name: string): Promise<string> {
  const result = await new Deno.Command("sh", {
    args: ["-c", `command -v ${name}`],
    stdout: "piped",
  })
    .output();
  assert.ok(result.success, `${name} is on PATH`);
  return new TextDecoder().decode(result.stdout).trim();
}

Deno.test("bench/main.ts stops with exit 2 before measuring when node is missing", async () => {
  // A PATH with taskset and nproc but no node: the Node.js SDK column cannot run.
  const bin = await Deno.makeTempDir({ prefix: "magi-bench-path-" });
  try {
    for (const tool of ["taskset", "nproc"]) {
      await Deno.symlink(await which(tool), `${bin}/${tool}`);
    }
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "--quick", "--no-write"],
      env: { PATH: bin, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(result.code, 2);
    assert.equal(new TextDecoder().decode(result.stdout), "");
    // Deno answers `node` itself when none is on PATH: the suite must not take that for Node.js.
    assert.match(
      new TextDecoder().decode(result.stderr).trim(),
      /^bench: node \(Node\.js\) is required for the MCP SDK column on Node\.js: `node --version` gave "(not installed|deno [^"]*)"$/,
    );
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});
