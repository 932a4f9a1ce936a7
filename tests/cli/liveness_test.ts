import assert from "node:assert/strict";
import { LivenessProbe } from "../../src/cli/liveness.ts";

function later(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test("LivenessProbe reports a stall when the status probe goes unanswered", async () => {
  let probes = 0;
  const stalled = Promise.withResolvers<void>();
  const probe = new LivenessProbe({
    stallMs: 20,
    probeMs: 20,
    probe: (signal) => {
      probes++;
      return new Promise((_resolve, reject) => signal.addEventListener("abort", reject));
    },
    onStalled: () => stalled.resolve(),
  });
  await stalled.promise;
  probe.stop();
  assert.equal(probes, 1);
});

Deno.test("LivenessProbe keeps probing a backend that answers status, never stalling", async () => {
  let probes = 0;
  let stalls = 0;
  const probe = new LivenessProbe({
    stallMs: 10,
    probeMs: 50,
    probe: () => {
      probes++;
      return Promise.resolve({ state: "running" });
    },
    onStalled: () => stalls++,
  });
  while (probes < 3) await later(10);
  probe.stop();
  assert.equal(stalls, 0);
});

Deno.test("LivenessProbe does not probe while output keeps arriving", async () => {
  let probes = 0;
  const probe = new LivenessProbe({
    stallMs: 60,
    probe: () => Promise.resolve(probes++),
    onStalled: () => {},
  });
  for (let i = 0; i < 8; i++) {
    probe.activity();
    await later(15);
  }
  probe.stop();
  assert.equal(probes, 0);
});
