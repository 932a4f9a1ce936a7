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

Deno.test("echo_child --answer-bytes answers each complete line with a line of that size", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ECHO, "--answer-bytes=4"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  await writer.write(encoder.encode("a long first line\nsecond"));
  await writer.write(encoder.encode(" line\nno-newline"));
  await writer.close();
  const [output, status] = await Promise.all([new Response(child.stdout).text(), child.status]);
  assert.equal(output, "aaa\naaa\n");
  assert.equal(status.code, 0);
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
