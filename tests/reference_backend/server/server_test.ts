import assert from "node:assert/strict";
import { serve } from "../../../src/reference_backend/server/server.ts";
import { PENDING_OUTPUT_FRAMES, PROTOCOL, VERSION } from "../../../src/protocol/limits.ts";

type Frame = Record<string, unknown> & { type: string; id?: string | null; event?: string };

/** Milliseconds the slow client takes to accept each output frame. */
const WRITE_DELAY_MS = 20;

/** `serve()` over in-memory streams whose output is accepted slowly but steadily. */
function slowServe(env: Record<string, string>, cwd: string) {
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  const waiters = new Set<() => void>();
  let input!: ReadableStreamDefaultController<Uint8Array>;
  const stdin = new ReadableStream<Uint8Array>({ start: (c) => void (input = c) });
  const stdout = new WritableStream<Uint8Array>({
    write(chunk) {
      // One write may carry several frames when the writer coalesces.
      for (const line of decoder.decode(chunk).split("\n")) {
        if (line !== "") frames.push(JSON.parse(line) as Frame);
      }
      for (const wake of [...waiters]) wake();
      return new Promise((resolve) => setTimeout(resolve, WRITE_DELAY_MS));
    },
  });
  const exit = serve({ stdin, stdout, cwd, env: (name) => env[name] });
  const send = (id: string, method: string, params: unknown) =>
    input.enqueue(
      new TextEncoder().encode(
        `${JSON.stringify({ protocol: PROTOCOL, version: VERSION, id, method, params })}\n`,
      ),
    );
  // Checked now and on every write the backend makes (no polling), at most 10 s.
  const waitFor = async (match: (f: Frame) => boolean, what: string): Promise<number> => {
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const at = frames.findIndex(match);
      if (at !== -1) return at;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(0, until - Date.now()));
        waiters.add(wake);
      });
    }
    throw new Error(`No ${what} within 10 s`);
  };
  return { frames, exit, send, waitFor };
}

Deno.test("serve() admits shutdown at once while a long reply drains slowly: only already pending frames precede its answer", async () => {
  const root = await Deno.makeTempDir({ prefix: "magi-serve-" });
  try {
    await Deno.mkdir(`${root}/cwd`);
    const scenario = `${root}/scenario.json`;
    const steps = Array.from({ length: 200 }, () => ({ say: "0123456789abcdef", repeat: 1_000 }));
    await Deno.writeTextFile(scenario, JSON.stringify({ turns: [{ steps }] }));
    const child = slowServe(
      { MC_HOME: `${root}/mc_home`, MAGI_SCENARIO: scenario },
      `${root}/cwd`,
    );
    child.send("i", "initialize", { required_capabilities: ["session.create", "turn.start"] });
    await child.waitFor((f) => f.id === "i", "initialize response");
    child.send("c", "session.create", {});
    const created = child.frames[await child.waitFor((f) => f.id === "c", "session.create")];
    const sessionId = (created?.result as { session_id: string }).session_id;
    child.send("t", "turn.start", { session_id: sessionId, prompt: "talk" });
    const first = await child.waitFor((f) => f.event === "message.reconcile", "a reconcile part");
    // Let output back up: the run keeps 24 frames pending while the client drains slowly (one
    // write per WRITE_DELAY_MS). The run produces far faster than that, so once two pending
    // bounds more have been written, the queue has been full for a while.
    const backlog = first + 2 * PENDING_OUTPUT_FRAMES;
    await child.waitFor((_f) => child.frames.length > backlog, "a backed-up output");
    const writtenBefore = child.frames.length;
    child.send("s", "shutdown", {});
    const answered = await child.waitFor((f) => f.id === "s", "shutdown response");
    assert.deepEqual(child.frames[answered]?.result, { state: "stopping" });
    assert.ok(
      answered - writtenBefore <= PENDING_OUTPUT_FRAMES,
      `the shutdown answer followed ${answered - writtenBefore} frames, more than were pending`,
    );
    assert.equal(await child.exit, 0);
    const finished = child.frames.find((f) => f.event === "run.finished");
    assert.equal((finished?.data as Record<string, unknown>).outcome, "cancelled");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
