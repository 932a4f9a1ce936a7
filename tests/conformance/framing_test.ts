/**
 * Framing and envelope rules: one UTF-8 JSON object per LF-terminated line, strict JSON,
 * bounded size and depth, exact envelope fields, never-reused request IDs.
 */

import assert from "node:assert/strict";
import { type Backend, type ResponseFrame, withBackend } from "./_harness.ts";
import { initialize } from "./_fixtures.ts";
import { envelope, frame, paddedFrame } from "./_wire.ts";
import { INPUT_FRAME_BYTES, REQUEST_IDS } from "../../src/protocol/limits.ts";

/** A close after a fatal protocol error: the child exits on its own (code not specified). */
const CLOSE_CODES = [0, 1];

/** The connection still works: a fresh initialize succeeds. */
async function assertUsable(b: Backend): Promise<void> {
  const result = await initialize(b);
  assert.ok(Array.isArray(result.capabilities), "initialize after the error succeeds");
}

function responses(b: Backend) {
  return b.frames.filter((f) => f.type === "response");
}

Deno.test("an empty line is answered with invalid_frame and id null; the connection stays usable", async () => {
  await withBackend({}, async (b) => {
    await b.send("\n");
    const res = await b.waitResponse(null);
    assert.deepEqual(res.error, { code: "invalid_frame" });
    await assertUsable(b);
  });
});

const INVALID_JSON: ReadonlyArray<readonly [string, string]> = [
  ["truncated object", '{"protocol":"magi-code.local-agent",'],
  ["bare word", "hello"],
  ["two values", `${envelope("a1", "status", {})} {}`],
  ["trailing comma", '{"protocol":"magi-code.local-agent","version":1,}'],
  ["a JSON array", "[1,2,3]"],
  ["a JSON string", '"status"'],
];
for (const [name, text] of INVALID_JSON) {
  Deno.test(`invalid JSON (${name}) is answered with invalid_request and id null`, async () => {
    await withBackend({}, async (b) => {
      await b.send(`${text}\n`);
      const res = await b.waitResponse(null);
      assert.deepEqual(res.error, { code: "invalid_request" });
      await assertUsable(b);
    });
  });
}

Deno.test("invalid UTF-8 is answered with invalid_request and id null", async () => {
  await withBackend({}, async (b) => {
    const text = new TextEncoder().encode(frame("u1", "shutdown", { x: "\u00e9" }));
    const bad = new Uint8Array(text.length);
    bad.set(text);
    const at = bad.indexOf(0xc3);
    bad[at] = 0xff; // a byte that never occurs in UTF-8
    await b.send(bad);
    const res = await b.waitResponse(null);
    assert.deepEqual(res.error, { code: "invalid_request" });
    assert.equal(responses(b).some((f) => f.id === "u1"), false, "the frame was not executed");
    await assertUsable(b);
  });
});

Deno.test("a duplicate top-level key is answered with invalid_request and never executed", async () => {
  await withBackend({}, async (b) => {
    await b.send(
      '{"protocol":"magi-code.local-agent","version":1,"id":"d1","method":"shutdown",' +
        '"method":"shutdown","params":{}}\n',
    );
    const res = await b.waitResponse(null);
    assert.deepEqual(res.error, { code: "invalid_request" });
    await assertUsable(b); // a shutdown would have stopped admission
  });
});

const PARAMS_DUPLICATES: ReadonlyArray<readonly [string, string]> = [
  [
    "a duplicate key in params",
    '{"required_capabilities":["status"],"required_capabilities":["status"]}',
  ],
  [
    "a duplicate key nested deeper in params",
    '{"required_capabilities":["status"],"client_tools":[{"name":"a","input_schema":' +
    '{"type":"object","type":"object"}}]}',
  ],
];
for (const [name, params] of PARAMS_DUPLICATES) {
  Deno.test(`${name} is answered with invalid_params and the request's id, never executed`, async () => {
    await withBackend({}, async (b) => {
      await b.send(
        '{"protocol":"magi-code.local-agent","version":1,"id":"d1","method":"initialize",' +
          `"params":${params}}\n`,
      );
      const res = await b.waitResponse("d1");
      assert.deepEqual(res.error, { code: "invalid_params" });
      assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "no startup effects");
      await assertUsable(b);
    });
  });
}

Deno.test("a duplicate params key at the top level is answered with invalid_request and id null", async () => {
  await withBackend({}, async (b) => {
    await b.send(
      '{"protocol":"magi-code.local-agent","version":1,"id":"d1","method":"initialize",' +
        '"params":{"required_capabilities":["status"]},"params":{"required_capabilities":["status"]}}\n',
    );
    const res = await b.waitResponse(null);
    assert.deepEqual(res.error, { code: "invalid_request" });
    assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "no startup effects");
    await assertUsable(b);
  });
});

Deno.test("33 nested containers are answered with invalid_frame; 32 are parsed", async () => {
  await withBackend({}, async (b) => {
    // envelope (1) + params (2) + n arrays
    const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const line = (id: string, arrays: number) =>
      `{"protocol":"magi-code.local-agent","version":1,"id":"${id}","method":"initialize",` +
      `"params":{"required_capabilities":["status"],"x":${nested(arrays)}}}\n`;
    await b.send(line("deep33", 31));
    const deep = await b.waitResponse(null);
    assert.deepEqual(deep.error, { code: "invalid_frame" });
    await b.send(line("deep32", 30));
    const ok = await b.waitResponse("deep32");
    assert.deepEqual(ok.error, { code: "invalid_params" }, "32 deep is a frame (unknown param)");
    await assertUsable(b);
  });
});

Deno.test("a frame of exactly 65,536 bytes (LF excluded) is accepted as a frame", async () => {
  await withBackend({}, async (b) => {
    const text = paddedFrame("big", INPUT_FRAME_BYTES);
    assert.equal(new TextEncoder().encode(text).length, INPUT_FRAME_BYTES);
    await b.send(`${text}\n`);
    const res = await b.waitResponse("big");
    assert.deepEqual(res.error, { code: "invalid_params" });
    await assertUsable(b);
  });
});

Deno.test("a frame of 65,537 bytes is answered with frame_too_large and the child closes", async () => {
  await withBackend({}, async (b) => {
    await b.send(
      `${paddedFrame("huge", INPUT_FRAME_BYTES + 1)}\n${frame("after", "shutdown", {})}`,
    );
    const res = await b.waitResponse(null);
    assert.deepEqual(res.error, { code: "frame_too_large" });
    await b.expectExit(CLOSE_CODES);
    assert.equal(responses(b).length, 1, "nothing after frame_too_large is answered");
  });
});

Deno.test("frame_too_large is detected on byte 65,537 without waiting for the LF", async () => {
  await withBackend({}, async (b) => {
    await b.send(paddedFrame("huge", INPUT_FRAME_BYTES + 100));
    const res = await b.waitResponse(null);
    assert.deepEqual(res.error, { code: "frame_too_large" });
    await b.expectExit(CLOSE_CODES);
  });
});

Deno.test("CR before LF counts toward the input frame limit", async () => {
  await withBackend({}, async (b) => {
    await b.send(`${paddedFrame("fits", INPUT_FRAME_BYTES - 1)}\r\n`);
    assert.deepEqual((await b.waitResponse("fits")).error, { code: "invalid_params" });
    await b.send(`${paddedFrame("over", INPUT_FRAME_BYTES)}\r\n`);
    assert.deepEqual((await b.waitResponse(null)).error, { code: "frame_too_large" });
    await b.expectExit(CLOSE_CODES);
  });
});

Deno.test("a CRLF-terminated frame is accepted (CR is JSON whitespace)", async () => {
  await withBackend({}, async (b) => {
    await b.send(`${envelope("crlf", "initialize", { required_capabilities: ["status"] })}\r\n`);
    const res = await b.waitResponse("crlf");
    assert.ok(res.result !== undefined, `initialize over CRLF: ${JSON.stringify(res.error)}`);
  });
});

Deno.test("a frame split across writes and two frames in one write are both read correctly", async () => {
  await withBackend({}, async (b) => {
    const text = frame("split", "initialize", { required_capabilities: ["status"] });
    await b.send(text.slice(0, 10));
    await b.settle(50);
    await b.send(text.slice(10, 40));
    await b.settle(50);
    await b.send(`${text.slice(40)}${frame("s1", "status", {})}`);
    // A multibyte character split across two writes is still valid UTF-8.
    const bytes = new TextEncoder().encode(frame("u8", "no.such.method", { x: "\u00e9\u{1F600}" }));
    const cut = bytes.indexOf(0xf0) + 2;
    await b.send(bytes.subarray(0, cut));
    await b.settle(50);
    await b.send(bytes.subarray(cut));
    assert.deepEqual((await b.waitResponse("u8")).error, { code: "unsupported_method" });
    assert.ok((await b.waitResponse("split")).result !== undefined);
    assert.ok((await b.waitResponse("s1")).result !== undefined);
  });
});

Deno.test("EOF without LF answers incomplete_frame and never executes the partial request", async () => {
  await withBackend({}, async (b) => {
    await b.send(envelope("partial", "initialize", { required_capabilities: ["status"] }));
    await b.closeStdin();
    const res = await b.waitResponse(null);
    assert.deepEqual(res.error, { code: "incomplete_frame" });
    await b.expectExit(0);
    assert.equal(responses(b).length, 1, "only the incomplete_frame response");
    assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "initialize never ran");
  });
});

const MISMATCH: ReadonlyArray<readonly [string, string]> = [
  ["protocol", '{"protocol":"other.protocol","version":1,"id":"m1","method":"status","params":{}}'],
  [
    "version",
    '{"protocol":"magi-code.local-agent","version":2,"id":"m1","method":"status","params":{}}',
  ],
  [
    "version as string",
    '{"protocol":"magi-code.local-agent","version":"1","id":"m1","method":"status","params":{}}',
  ],
];
for (const [name, text] of MISMATCH) {
  Deno.test(`a ${name} mismatch is answered with protocol_mismatch, then the child closes`, async () => {
    await withBackend({}, async (b) => {
      await b.send(`${text}\n${frame("after", "shutdown", {})}`);
      const res = await b.waitFrame(
        (f): f is ResponseFrame => f.type === "response",
        "the protocol_mismatch response",
      );
      assert.equal(res.type, "response");
      assert.deepEqual(res.type === "response" ? res.error : null, { code: "protocol_mismatch" });
      assert.ok(res.type === "response" && (res.id === "m1" || res.id === null));
      await b.expectExit(CLOSE_CODES);
      assert.equal(responses(b).length, 1, "nothing after protocol_mismatch is answered");
    });
  });
}

Deno.test("request IDs outside the grammar are answered with invalid_request and id null", async () => {
  await withBackend({}, async (b) => {
    const bad: unknown[] = ["has space", "", "x".repeat(65), "é", 7, null, true, ["a"], { a: 1 }];
    for (const id of bad) {
      const from = b.frames.length;
      await b.send(frame(id, "initialize", { required_capabilities: ["status"] }));
      const res = await b.waitResponse(null, undefined, from);
      assert.deepEqual(res.error, { code: "invalid_request" }, `id ${JSON.stringify(id)}`);
    }
    const ok = "x".repeat(64);
    await b.send(frame(ok, "status", {}));
    assert.ok((await b.waitResponse(ok)).error?.code !== "invalid_request", "64-byte ID accepted");
    assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "nothing was executed");
  });
});

Deno.test("an unknown method is answered with unsupported_method and its id", async () => {
  await withBackend({}, async (b) => {
    for (const method of ["session.destroy", "client.tool.call", "Initialize"]) {
      const res = await b.request(method, {});
      assert.deepEqual(res.error, { code: "unsupported_method" }, method);
    }
    await assertUsable(b);
  });
});

Deno.test("a method outside the name grammar is answered with invalid_request", async () => {
  await withBackend({}, async (b) => {
    for (const method of ["bad method", "", "m".repeat(65), "status/1"]) {
      const from = b.frames.length;
      await b.send(frame("bm" + from, method, {}));
      const res = await b.waitFrame(
        (f): f is ResponseFrame => f.type === "response" && f.index >= from,
        `answer to method ${JSON.stringify(method)}`,
        { from },
      );
      assert.ok(res.type === "response");
      assert.deepEqual(res.error, { code: "invalid_request" }, `method ${JSON.stringify(method)}`);
    }
    await assertUsable(b);
  });
});

const ENVELOPE_FIELDS: ReadonlyArray<readonly [string, string]> = [
  [
    "an unknown field",
    '{"protocol":"magi-code.local-agent","version":1,"id":"e1","method":"shutdown","params":{},"extra":1}',
  ],
  ["no params", '{"protocol":"magi-code.local-agent","version":1,"id":"e1","method":"shutdown"}'],
  ["no method", '{"protocol":"magi-code.local-agent","version":1,"id":"e1","params":{}}'],
  ["no id", '{"protocol":"magi-code.local-agent","version":1,"method":"shutdown","params":{}}'],
  ["no protocol", '{"version":1,"id":"e1","method":"shutdown","params":{}}'],
];
for (const [name, text] of ENVELOPE_FIELDS) {
  Deno.test(`an envelope with ${name} is answered with invalid_request and never executed`, async () => {
    await withBackend({}, async (b) => {
      await b.send(`${text}\n`);
      const res = await b.waitFrame(
        (f): f is ResponseFrame => f.type === "response",
        "the invalid_request response",
      );
      assert.ok(res.type === "response");
      assert.deepEqual(res.error, { code: "invalid_request" });
      assert.ok(res.id === "e1" || res.id === null, "id is the request ID or null");
      await assertUsable(b); // the shutdown did not run
    });
  });
}

Deno.test("params that are not an object are answered with invalid_params and the id", async () => {
  await withBackend({}, async (b) => {
    for (const params of [[], null, "x", 1, true]) {
      const res = await b.request("shutdown", params);
      assert.deepEqual(res.error, { code: "invalid_params" }, JSON.stringify(params));
    }
    await assertUsable(b);
  });
});

Deno.test("a reused request ID is answered with duplicate_id and never reexecuted", async () => {
  await withBackend({}, async (b) => {
    // A rejected well-formed request still consumes its ID.
    assert.deepEqual((await b.request("no.such.method", {}, { id: "dup" })).error, {
      code: "unsupported_method",
    });
    const again = await b.request("initialize", { required_capabilities: ["status"] }, {
      id: "dup",
    });
    assert.deepEqual(again.error, { code: "duplicate_id" });
    assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "initialize did not run");
    const init = await b.request("initialize", { required_capabilities: ["status"] }, { id: "i1" });
    assert.ok(init.result !== undefined);
    const reinit = await b.request("initialize", { required_capabilities: ["status"] }, {
      id: "i1",
    });
    assert.deepEqual(reinit.error, { code: "duplicate_id" }, "not already_initialized");
    const stop = await b.request("shutdown", {}, { id: "i1" });
    assert.deepEqual(stop.error, { code: "duplicate_id" }, "a reused ID never runs shutdown");
    assert.ok((await b.request("status", {})).result !== undefined, "still serving");
  });
});

Deno.test("the 4097th request ID is answered with request_limit and the child closes", async () => {
  await withBackend({}, async (b) => {
    const requests = Array.from(
      { length: REQUEST_IDS },
      (_, i) => ({ id: `q${i + 1}`, method: "status", params: {} }),
    );
    const answers = await b.pipeline(requests);
    assert.ok(answers.every((r) => r.error?.code === "not_initialized"), "all 4096 answered");
    assert.deepEqual((await b.request("status", {}, { id: "q1" })).error, { code: "duplicate_id" });
    await b.send(frame("one-too-many", "status", {}));
    const res = await b.waitFrame(
      (f): f is ResponseFrame => f.type === "response" && f.error?.code === "request_limit",
      "request_limit",
    );
    assert.ok(res.type === "response" && (res.id === "one-too-many" || res.id === null));
    await b.expectExit(CLOSE_CODES);
    assert.equal(responses(b).length, REQUEST_IDS + 2);
  });
});
