import assert from "node:assert/strict";
import { cpuModelOf, loadavgOf, memTotalMibOf } from "../../bench/machine.ts";

Deno.test("cpuModelOf() takes the first model name", () => {
  const cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\n\nmodel name\t: other\n";
  assert.equal(cpuModelOf(cpuinfo), "AMD EPYC 7B13");
  assert.equal(cpuModelOf("processor\t: 0\n"), "unknown");
});

Deno.test("memTotalMibOf() converts MemTotal to MiB", () => {
  assert.equal(memTotalMibOf("MemTotal:       24683520 kB\nMemFree: 1 kB\n"), 24105);
  assert.equal(memTotalMibOf(""), 0);
});

Deno.test("loadavgOf() reads the three load averages", () => {
  assert.deepEqual(loadavgOf("1.62 1.33 0.63 5/114 22144\n"), [1.62, 1.33, 0.63]);
});
