import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";

Deno.test("deno task example:openapi runs the documented example in one command", async () => {
  const token = `example-token-${crypto.randomUUID()}`;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "example:openapi"],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1", TICKETS_TOKEN: token },
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const records = stdout.trim().split("\n").map((line) => JSON.parse(line));
  const ready = records.find((r) => r.type === "host.ready");
  assert.deepEqual(
    ready.tools.map((t: Record<string, string>) =>
      `${t.name}:${t.effect}:${t.source}:${t.source_name}`
    ),
    [
      "listTickets:read:openapi:tickets",
      "createTicket:write:openapi:tickets",
      "searchTickets:read:openapi:tickets",
      "getTicket:read:openapi:tickets",
    ],
  );
  const results = records.filter((r) => r.type === "tool.result");
  assert.deepEqual(results.map((r) => `${r.name}:${r.outcome}`).sort(), [
    "getTicket:success",
    "listTickets:success",
    "searchTickets:success",
  ]);
  const text = records.find((r) => r.type === "message").text as string;
  assert.match(text, /getTicket → \{"id":"MAGI-7",/);
  // status=open and label=bug: only MAGI-7 (MAGI-3 is a closed bug, MAGI-8 an open docs ticket).
  const list = text.split("\n").find((line) => line.startsWith("listTickets → "))!;
  assert.deepEqual(
    JSON.parse(list.slice("listTickets → ".length)).map((t: { id: string }) => t.id),
    ["MAGI-7"],
  );
  assert.match(text, /searchTickets → \[\{"id":"MAGI-8",/);
  assert.match(text, /createTicket → denied/);
  assert.equal(records.at(-1).type, "turn.finished");
  assert.ok(!stdout.includes(token) && !stderr.includes(token));
});
