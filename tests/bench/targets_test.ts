import assert from "node:assert/strict";
import {
  coldVsInline,
  cpuVsSdkServer,
  fasterSdk,
  firstRunCheck,
  isolatedVsInline,
  memoryChecks,
  rateVsSdk,
  startupVsSdk,
  summaryLine,
} from "../../bench/targets.ts";

Deno.test("fasterSdk() picks the higher rate or the shorter time, and says which column", () => {
  const cases: [number | undefined, number | undefined, "higher" | "lower", string | undefined][] =
    [
      [5000, 6000, "higher", "Node.js 6000"],
      [6000, 5000, "higher", "Deno 6000"],
      [140, 90, "lower", "Node.js 90"],
      [90, 140, "lower", "Deno 90"],
      [100, 100, "higher", "Deno 100"],
      [100, 100, "lower", "Deno 100"],
      [undefined, 300, "higher", "Node.js 300"],
      [300, undefined, "lower", "Deno 300"],
      [Number.NaN, 300, "lower", "Node.js 300"],
      [300, Number.POSITIVE_INFINITY, "higher", "Deno 300"],
      [undefined, undefined, "higher", undefined],
    ];
  for (const [deno, node, better, expected] of cases) {
    const pick = fasterSdk(deno, node, better);
    assert.equal(
      pick === undefined ? undefined : `${pick.runtime} ${pick.value}`,
      expected,
      `${deno} / ${node} (${better})`,
    );
  }
});

Deno.test("rateVsSdk() passes at the bound and misses below it", () => {
  const node = { runtime: "Node.js", value: 2000 } as const;
  assert.deepEqual(rateVsSdk(3000, node, 1.5), {
    target: "≥ 1.5x the SDK",
    shown: "1.50x vs Node.js SDK",
    pass: true,
  });
  assert.equal(rateVsSdk(2999, node, 1.5)?.pass, false);
  const deno = { runtime: "Deno", value: 400 } as const;
  assert.deepEqual(rateVsSdk(400, deno, 1.0), {
    target: "≥ 1.0x the SDK",
    shown: "1.00x vs Deno SDK",
    pass: true,
  });
  assert.equal(rateVsSdk(399, deno, 1.0)?.pass, false);
  assert.equal(rateVsSdk(undefined, deno, 1.0), undefined);
  assert.equal(rateVsSdk(400, undefined, 1.0), undefined);
});

Deno.test("cpuVsSdkServer() passes the host's CPU per call at 0.67x the SDK server's or less", () => {
  const deno = { runtime: "Deno", value: 100 } as const;
  assert.deepEqual(cpuVsSdkServer(67, deno), {
    target: "host CPU ≤ 0.67x the SDK server's",
    shown: "0.67x of Deno SDK server (67.0 / 100 µs)",
    pass: true,
  });
  // Judged unrounded: 67.1 shows as 0.67x but misses.
  assert.deepEqual(cpuVsSdkServer(67.1, deno), {
    target: "host CPU ≤ 0.67x the SDK server's",
    shown: "0.67x of Deno SDK server (67.1 / 100 µs)",
    pass: false,
  });
  assert.equal(cpuVsSdkServer(65, { runtime: "Node.js", value: 68 })?.pass, false);
  assert.equal(cpuVsSdkServer(undefined, deno), undefined);
  assert.equal(cpuVsSdkServer(50, undefined), undefined);
  assert.equal(cpuVsSdkServer(50, { runtime: "Deno", value: 0 }), undefined);
});

Deno.test("coldVsInline() allows a cold isolated figure at most 2x the inline one", () => {
  assert.deepEqual(coldVsInline(20, 10), {
    target: "≤ 2x inline",
    shown: "2.00x inline",
    pass: true,
  });
  assert.equal(coldVsInline(20.1, 10)?.pass, false);
  assert.deepEqual(coldVsInline(574, 4), {
    target: "≤ 2x inline",
    shown: "144x inline",
    pass: false,
  });
  assert.equal(coldVsInline(undefined, 10), undefined);
  assert.equal(coldVsInline(10, 0), undefined);
});

Deno.test("startupVsSdk() needs spawn → host.ready ≤ 100% of the SDK's spawn → tools/list", () => {
  assert.deepEqual(startupVsSdk(100, { runtime: "Deno", value: 100 }), {
    target: "≤ 100% of the SDK",
    shown: "100% of Deno SDK",
    pass: true,
  });
  assert.deepEqual(startupVsSdk(283, { runtime: "Node.js", value: 143 }), {
    target: "≤ 100% of the SDK",
    shown: "198% of Node.js SDK",
    pass: false,
  });
  assert.equal(startupVsSdk(100.1, { runtime: "Deno", value: 100 })?.pass, false);
  assert.equal(startupVsSdk(undefined, { runtime: "Deno", value: 100 }), undefined);
});

Deno.test("isolatedVsInline() allows an isolated call at most 2.5x the cost of an inline one", () => {
  assert.deepEqual(isolatedVsInline(1200, 3000), {
    target: "≤ 2.5x inline",
    shown: "2.50x",
    pass: true,
  });
  assert.equal(isolatedVsInline(1199, 3000)?.pass, false);
  assert.equal(isolatedVsInline(undefined, 3000), undefined);
});

Deno.test("memoryChecks() bounds growth at +5% (a decrease passes) and peak at 80 MiB", () => {
  const cases: [number | undefined, number | undefined, number | undefined, string, string][] = [
    [100_000, 105_000, 81_920, "+5.0%; peak 80.0 MiB", "PASS; PASS"],
    [100_000, 105_001, 81_921, "+5.0%; peak 80.0 MiB", "MISS; MISS"],
    [116_736, 167_936, 136_192, "+43.9%; peak 133 MiB", "MISS; MISS"],
    [80_000, 60_000, 70_000, "-25.0%; peak 68.4 MiB", "PASS; PASS"],
    [undefined, undefined, 70_000, "not measured; peak 68.4 MiB", "MISS; PASS"],
    [70_000, 70_000, undefined, "+0.0%; peak not measured", "PASS; MISS"],
  ];
  for (const [start, end, peak, shown, result] of cases) {
    const checks = memoryChecks(start, end, peak);
    assert.deepEqual(checks.map((c) => c.target), ["within +5%", "peak ≤ 80 MiB"]);
    assert.equal(checks.map((c) => c.shown).join("; "), shown, `${start} → ${end}, ${peak}`);
    assert.equal(checks.map((c) => (c.pass ? "PASS" : "MISS")).join("; "), result);
  }
});

Deno.test("firstRunCheck() passes only when the installed packages equal the graph's closure", () => {
  const measured = (installed: string[], graph: string[]) =>
    firstRunCheck({ status: "measured", installed, graph, seconds: 1 });
  assert.deepEqual(measured(["b", "a"], ["a", "b"]), {
    target: "downloads only the packages the demo imports",
    shown: "2 installed = 2 in the graph",
    pass: true,
  });
  // Duplicates in either list do not change the sets.
  assert.equal(measured(["a", "a"], ["a"]).pass, true);
  const extra = measured(["zod", "express", "esbuild"], ["zod"]);
  assert.equal(extra.pass, false);
  assert.equal(extra.shown, "3 installed, 1 in the graph; not in the graph: esbuild, express");
  const missing = measured(["zod"], ["zod", "jsonc-parser"]);
  assert.equal(missing.pass, false);
  assert.equal(
    missing.shown,
    "1 installed, 2 in the graph; in the graph, not installed: jsonc-parser",
  );
  const many = measured(["a", "b", "c", "d", "e", "f", "g"], []);
  assert.equal(many.shown, "7 installed, 0 in the graph; not in the graph: a, b, c, d, e, … (7)");
  assert.deepEqual(
    firstRunCheck({ status: "not measured", reason: "scripts/first_run.ts missing" }),
    {
      target: "downloads only the packages the demo imports",
      shown: "not measured (scripts/first_run.ts missing)",
      pass: false,
    },
  );
});

Deno.test("summaryLine() counts passes and misses", () => {
  const check = (pass: boolean) => ({ target: "t", shown: "s", pass });
  assert.equal(summaryLine([]), "Targets: 0 PASS, 0 MISS.");
  assert.equal(
    summaryLine([check(true), check(false), check(false), check(true), check(false)]),
    "Targets: 2 PASS, 3 MISS.",
  );
});
