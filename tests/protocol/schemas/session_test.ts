import {
  SessionCreateParamsSchema,
  SessionCreateResultSchema,
  SessionOpenParamsSchema,
  SessionOpenResultSchema,
} from "../../../src/protocol/schemas/session.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

const CREATED = { session_id: "new-id", durable: false, revision: "rev-1", notices: [] };
const OPENED = {
  session_id: "saved-id",
  durable: true,
  revision: "rev-2",
  notices: ["saved_selection_unavailable"],
};

Deno.test("session.create params are exactly {}; result is a lazy handle", () => {
  assertAccepts(SessionCreateParamsSchema, [["empty", {}]]);
  assertRejects(SessionCreateParamsSchema, [["extra", { title: "x" }]]);
  assertAccepts(SessionCreateResultSchema, [["created", CREATED]]);
  assertRejects(SessionCreateResultSchema, [
    ["durable true", { ...CREATED, durable: true }],
    ["with a notice", { ...CREATED, notices: ["x"] }],
    ["missing revision", without(CREATED, "revision")],
    ["unknown field", { ...CREATED, title: null }],
    ["bad session ID", { ...CREATED, session_id: "a/b" }],
  ]);
});

Deno.test("session.open takes an exact session ID and returns notices", () => {
  assertAccepts(SessionOpenParamsSchema, [["id", { session_id: "saved-id" }]]);
  assertRejects(SessionOpenParamsSchema, [
    ["missing", {}],
    ["65 bytes", { session_id: "s".repeat(65) }],
    ["dot", { session_id: "a.b" }],
    ["null", { session_id: null }],
    ["extra", { session_id: "s", latest: true }],
  ]);
  assertAccepts(SessionOpenResultSchema, [["opened", OPENED], ["lazy", {
    ...OPENED,
    durable: false,
    notices: [],
  }]]);
  assertRejects(SessionOpenResultSchema, [
    ["notice not a code", { ...OPENED, notices: ["Saved Selection"] }],
    ["durable string", { ...OPENED, durable: "true" }],
    ["unknown field", { ...OPENED, extra: 1 }],
  ]);
});
