import assert from "node:assert/strict";

const ECHO = new URL("../../bench/harness/echo_child.ts", import.meta.url).pathname;

Deno.test("echo_child echoes each complete line and exits 0 at EOF", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ECHO],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  await writer.write(encoder.encode('{"a":1}\n{"b":'));
  await writer.write(encoder.encode("2}\nno-newline"));
  await writer.close();
  const [output, status] = await Promise.all([new Response(child.stdout).text(), child.status]);
  assert.equal(output, '{"a":1}\n{"b":2}\n');
  assert.equal(status.code, 0);
});
