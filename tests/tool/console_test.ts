import assert from "node:assert/strict";

Deno.test("redirectConsoleToStderr() sends stdout console methods to stderr until restored", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-env", "tests/tool/fixtures/console_child.ts"],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.equal(stdout, "restored line\n");
  for (
    const text of [
      "log line",
      "info line",
      "debug line",
      "table cell",
      "dir value",
      "group label",
      "counter: 1",
    ]
  ) {
    assert.ok(stderr.includes(text), `${text} in ${stderr}`);
  }
  assert.equal(stderr.includes("restored line"), false);
});
