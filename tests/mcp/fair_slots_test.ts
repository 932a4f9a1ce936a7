import assert from "node:assert/strict";
import { FairSlots } from "../../src/mcp/_fair_slots.ts";

const open = () => new AbortController().signal;

Deno.test("FairSlots keeps one client to perClient slots and serves others meanwhile", async () => {
  const slots = new FairSlots({ capacity: 4, perClient: 3 });
  const a = await Promise.all([0, 1, 2].map(() => slots.acquire("a", open())));
  let fourth: (() => void) | null | undefined;
  void slots.acquire("a", open()).then((release) => (fourth = release));
  const b = await slots.acquire("b", open());
  assert.ok(b !== null);
  assert.equal(slots.held, 4);
  await Promise.resolve();
  assert.equal(fourth, undefined, "a's fourth call waits while a holds 3");
  a[0]!();
  await Promise.resolve();
  assert.equal(typeof fourth, "function");
});

Deno.test("FairSlots serves waiting clients round-robin", async () => {
  const slots = new FairSlots({ capacity: 1, perClient: 1 });
  const first = await slots.acquire("a", open());
  const order: string[] = [];
  const waits = ["a", "a", "b"].map((key) =>
    slots.acquire(key, open()).then((release) => {
      order.push(key);
      release?.();
    })
  );
  first!();
  await Promise.all(waits);
  assert.deepEqual(order, ["a", "b", "a"]);
});

Deno.test("FairSlots: a waiter whose signal fires leaves the line without a slot", async () => {
  const slots = new FairSlots({ capacity: 1, perClient: 1 });
  const held = await slots.acquire("a", open());
  const cancel = new AbortController();
  const waiting = slots.acquire("b", cancel.signal);
  cancel.abort();
  assert.equal(await waiting, null);
  held!();
  assert.equal(slots.held, 0);
  assert.equal(await slots.acquire("b", AbortSignal.abort()), null);
});
