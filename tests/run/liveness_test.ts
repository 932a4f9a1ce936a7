import assert from "node:assert/strict";
import { LivenessProbe } from "../../src/run/liveness.ts";
import { FakeTime } from "../_fake_time.ts";

Deno.test("LivenessProbe reports a stall when the status probe goes unanswered", async () => {
  let probes = 0;
  let stalls = 0;
  const time = new FakeTime();
  const probe = new LivenessProbe({
    stallMs: 20,
    probeMs: 20,
    probe: (signal) => {
      probes++;
      return new Promise((_resolve, reject) => signal.addEventListener("abort", reject));
    },
    onStalled: () => stalls++,
    clock: time,
  });
  await time.tick(39);
  assert.equal(stalls, 0, "not before the probe bound ran out");
  await time.tick(1);
  assert.equal(stalls, 1);
  probe.stop();
  assert.equal(probes, 1);
});

Deno.test("LivenessProbe keeps probing a backend that answers status, never stalling", async () => {
  let probes = 0;
  let stalls = 0;
  const time = new FakeTime();
  const probe = new LivenessProbe({
    stallMs: 10,
    probeMs: 50,
    probe: () => {
      probes++;
      return Promise.resolve({ state: "running" });
    },
    onStalled: () => stalls++,
    clock: time,
  });
  await time.tickUntil(() => probes >= 3, 1_000);
  await time.tick(200);
  probe.stop();
  assert.equal(stalls, 0);
});

Deno.test("LivenessProbe does not probe while output keeps arriving", async () => {
  const time = new FakeTime();
  let probes = 0;
  const probe = new LivenessProbe({
    stallMs: 60,
    probe: () => Promise.resolve(probes++),
    onStalled: () => {},
    clock: time,
  });
  for (let i = 0; i < 8; i++) {
    probe.activity();
    await time.tick(15);
  }
  probe.stop();
  assert.equal(probes, 0);
});
