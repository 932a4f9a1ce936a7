/**
 * The turn scope (`src/run/turn_scope.ts`) over a recording fake connection: the phases in
 * order, a failure turned into its exit code, the stop (always, or only after a failure when
 * the connection is kept), the deadlines of initialize and of the turn, and the output watch.
 * Nothing is spawned; deadlines are waited for as events, never with sleeps.
 */

import assert from "node:assert/strict";
import { ApprovalDecider } from "../../src/run/approvals.ts";
import type { BackendTurnOptions } from "../../src/run/run_options.ts";
import { runTurnScope, type ScopedConnection } from "../../src/run/turn_scope.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";

/** A connection that records its calls; `initialize`/`turn` do what the test says. */
class FakeConnection implements ScopedConnection {
  readonly calls: string[] = [];
  healthy = true;
  watching = 0;
  #timeouts = new Set<() => void>();
  constructor(
    readonly phases: {
      initialize?: () => Promise<number | null>;
      turn?: (turn: BackendTurnOptions) => Promise<number>;
    } = {},
  ) {}
  /** Resolves at the next timeout(). */
  nextTimeout(): Promise<void> {
    return new Promise((resolve) => this.#timeouts.add(resolve));
  }
  timeout(): void {
    this.calls.push("timeout");
    for (const wake of this.#timeouts) wake();
    this.#timeouts.clear();
  }
  watchOutput(_writer: SummaryWriter): () => void {
    this.watching++;
    return () => void this.watching--;
  }
  initialize(): Promise<number | null> {
    this.calls.push("initialize");
    return this.phases.initialize?.() ?? Promise.resolve(null);
  }
  turn(turn: BackendTurnOptions): Promise<number> {
    this.calls.push(`turn:${turn.prompt}:${turn.toolErrors === null ? "no-tally" : "tally"}`);
    return this.phases.turn?.(turn) ?? Promise.resolve(0);
  }
  failure(error: unknown): Promise<number> {
    this.calls.push(`failure:${(error as Error).message}`);
    this.healthy = false;
    return Promise.resolve(4);
  }
  stop(): Promise<void> {
    this.calls.push(`stop:${this.watching}`);
    return Promise.resolve();
  }
}

/** `promise`, or a failure after a generous 10 s (a missing deadline must not hang the suite). */
async function within<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("No result within 10 s")), 10_000);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

function turnOptions(prompt = "p"): Omit<BackendTurnOptions, "toolErrors"> {
  return {
    prompt,
    session: undefined,
    writer: new SummaryWriter(() => Promise.resolve()),
    deltas: false,
    approvals: new ApprovalDecider("deny", null),
    lastMessage: undefined,
  };
}

Deno.test("runTurnScope(): initialize, turn, then stop, with the output watch removed first", async () => {
  const host = new FakeConnection();
  const code = await runTurnScope(host, {
    turn: turnOptions(),
    initialize: true,
    timeoutMs: undefined,
    failOnToolError: false,
  });
  assert.equal(code, 0);
  assert.deepEqual(host.calls, ["initialize", "turn:p:no-tally", "stop:0"]);
});

Deno.test("runTurnScope(): --fail-on-tool-error gives the turn a tally", async () => {
  const host = new FakeConnection();
  await runTurnScope(host, {
    turn: turnOptions(),
    initialize: false,
    timeoutMs: undefined,
    failOnToolError: true,
  });
  assert.deepEqual(host.calls, ["turn:p:tally", "stop:0"]);
});

Deno.test("runTurnScope(): a stop during initialize ends the scope with its code, no turn", async () => {
  const host = new FakeConnection({ initialize: () => Promise.resolve(130) });
  let ready = false;
  const code = await runTurnScope(host, {
    turn: turnOptions(),
    initialize: true,
    timeoutMs: undefined,
    failOnToolError: false,
    onReady: () => void (ready = true),
  });
  assert.equal(code, 130);
  assert.equal(ready, false);
  assert.deepEqual(host.calls, ["initialize", "stop:0"]);
});

Deno.test("runTurnScope(): a throw becomes failure()'s exit code, reported before the stop", async () => {
  const host = new FakeConnection({ turn: () => Promise.reject(new Error("broken")) });
  const failures: number[] = [];
  const code = await runTurnScope(host, {
    turn: turnOptions(),
    initialize: true,
    timeoutMs: undefined,
    failOnToolError: false,
    keep: true,
    onFailure: (failed) => {
      failures.push(failed);
      host.calls.push("onFailure");
    },
  });
  assert.equal(code, 4);
  assert.deepEqual(failures, [4]);
  // Kept connections are still stopped once unhealthy.
  assert.deepEqual(host.calls, [
    "initialize",
    "turn:p:no-tally",
    "failure:broken",
    "onFailure",
    "stop:0",
  ]);
});

Deno.test("runTurnScope(): keep leaves a healthy connection open for the next turn", async () => {
  const host = new FakeConnection();
  const ready: string[] = [];
  await runTurnScope(host, {
    turn: turnOptions("a"),
    initialize: true,
    timeoutMs: undefined,
    failOnToolError: false,
    keep: true,
    onReady: () => ready.push("ready"),
  });
  await runTurnScope(host, {
    turn: turnOptions("b"),
    initialize: false,
    timeoutMs: undefined,
    failOnToolError: false,
    keep: true,
  });
  assert.deepEqual(ready, ["ready"]);
  assert.deepEqual(host.calls, ["initialize", "turn:a:no-tally", "turn:b:no-tally"]);
});

Deno.test("runTurnScope(): timeoutMs covers initialize and the turn when no startup deadline is given", async () => {
  // The turn waits for the deadline: it fires while the turn runs (armed before initialize).
  const host = new FakeConnection({
    turn: (): Promise<number> => host.nextTimeout().then(() => 1),
  });
  const code = await within(runTurnScope(host, {
    turn: turnOptions(),
    initialize: true,
    timeoutMs: 1,
    failOnToolError: false,
  }));
  assert.equal(code, 1);
  assert.deepEqual(host.calls, ["initialize", "turn:p:no-tally", "timeout", "stop:0"]);
});

Deno.test("runTurnScope(): startupTimeoutMs bounds initialize; the turn then gets timeoutMs", async () => {
  // Initialize waits for its deadline, then the turn for its own (a second timeout()).
  const host = new FakeConnection({
    initialize: (): Promise<number | null> => host.nextTimeout().then(() => null),
    turn: (): Promise<number> => host.nextTimeout().then(() => 1),
  });
  const code = await within(runTurnScope(host, {
    turn: turnOptions(),
    initialize: true,
    startupTimeoutMs: 1,
    timeoutMs: 1,
    failOnToolError: false,
  }));
  assert.equal(code, 1);
  assert.deepEqual(host.calls, ["initialize", "timeout", "turn:p:no-tally", "timeout", "stop:0"]);
});

Deno.test("runTurnScope(): a deadline that did not expire is cleared (no timeout after the scope)", async () => {
  const host = new FakeConnection();
  await runTurnScope(host, {
    turn: turnOptions(),
    initialize: true,
    timeoutMs: 60_000,
    failOnToolError: false,
  });
  // Deno's test sanitizer fails the test on a leaked timer; the record shows no timeout.
  assert.deepEqual(host.calls, ["initialize", "turn:p:no-tally", "stop:0"]);
});
