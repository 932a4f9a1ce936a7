import assert from "node:assert/strict";

const ECHO = new URL("../../bench/harness/echo_child.ts", import.meta.url).pathname;

/** Run the echo child with `flags`, write `chunks` in turn and close stdin: its stdout and exit code. */
async function echo(flags: string[], chunks: string[]): Promise<{ output: string; code: number }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ECHO, ...flags],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  for (const chunk of chunks) await writer.write(encoder.encode(chunk));
  await writer.close();
  const [output, status] = await Promise.all([new Response(child.stdout).text(), child.status]);
  return { output, code: status.code };
}

Deno.test("echo_child echoes each complete line and exits 0 at EOF", async () => {
  const { output, code } = await echo([], ['{"a":1}\n{"b":', "2}\nno-newline"]);
  assert.equal(output, '{"a":1}\n{"b":2}\n');
  assert.equal(code, 0);
});

Deno.test("echo_child --answer-bytes answers each complete line with a line of that size", async () => {
  const chunks = ["a long first line\nsecond", " line\nno-newline"];
  const { output, code } = await echo(["--answer-bytes=4"], chunks);
  assert.equal(output, "aaa\naaa\n");
  assert.equal(code, 0);
});

Deno.test("echo_child refuses an --answer-bytes that is not a positive integer", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", ECHO, "--answer-bytes=0"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.notEqual(code, 0);
  assert.match(new TextDecoder().decode(stderr), /--answer-bytes must be a positive integer: 0/);
});
