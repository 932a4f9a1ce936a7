/** `src/telemetry/mod.ts` with telemetry off (the test process has no `OTEL_DENO`). */
import assert from "node:assert/strict";
import {
  incomingTraceparent,
  parseTraceparent,
  recordToolCall,
  startSpan,
  startTurnSpan,
  TELEMETRY,
} from "../../src/telemetry/mod.ts";

const VALID = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

Deno.test({
  name: "telemetry off: no span is made and measurements are dropped",
  // Under OTEL_DENO=true (a suite run exporting its own telemetry) there is nothing to check.
  ignore: Deno.env.get("OTEL_DENO") === "true",
  fn() {
    assert.equal(TELEMETRY, false);
    assert.equal(startSpan("x", VALID, {}), undefined);
    assert.equal(startTurnSpan("s", "r"), undefined);
    recordToolCall(1, { "gen_ai.tool.name": "x" }); // no-op, no throw
  },
});

Deno.test("parseTraceparent() accepts W3C version-00 contexts and refuses the rest", () => {
  assert.deepEqual(parseTraceparent(VALID), {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    traceFlags: 1,
    isRemote: true,
  });
  assert.equal(parseTraceparent(` ${VALID.toUpperCase()} `)?.spanId, "b7ad6b7169203331");
  for (
    const bad of [
      undefined,
      42,
      "",
      "00-not-a-trace-context",
      "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
      `${VALID}-extra`,
    ]
  ) {
    assert.equal(parseTraceparent(bad), null, String(bad));
    assert.equal(incomingTraceparent(bad), undefined, String(bad));
  }
  assert.equal(incomingTraceparent(` ${VALID.toUpperCase()}`), VALID);
});
