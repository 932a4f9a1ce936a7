import {
  SessionListParamsSchema,
  SessionListResultSchema,
} from "../../../src/protocol/schemas/discovery.ts";
import { assertAccepts, assertRejects, specExample, without } from "./_assert.ts";

// local-agent-protocol.md session.list example: two requests' params and the result.
const FIRST = specExample(`{"limit":1}`);
const NEXT = specExample(`{"revision":"<opaque-revision>","cursor":"<opaque-cursor>","limit":1}`);
const RESULT = specExample(
  `{"revision":"<opaque-revision>","sessions":[{"session_id":"older-id","title":null,"updated_at":null,"eligibility":"cwd_unverified","notices":["cwd_unverified"]}],"next_cursor":"<opaque-cursor>","complete":false,"notices":[]}`,
);
const ENTRY = {
  session_id: "b-id",
  title: "Fix the build",
  updated_at: "2026-11-30T00:12:27.123Z",
  eligibility: "available",
  notices: [],
};

Deno.test("SessionListParamsSchema accepts the spec examples and defaults", () => {
  assertAccepts(SessionListParamsSchema, [
    ["first page example", FIRST],
    ["continuation example", NEXT],
    ["all omitted", {}],
    ["explicit nulls", { revision: null, cursor: null, limit: 100 }],
  ]);
  assertRejects(SessionListParamsSchema, [
    ["limit 0", { limit: 0 }],
    ["limit 101", { limit: 101 }],
    ["limit fraction", { limit: 1.5 }],
    ["revision without cursor", { revision: "r" }],
    ["cursor without revision", { revision: null, cursor: "c" }],
    ["unknown field", { limit: 1, sort: "asc" }],
    ["65-byte revision", { revision: "r".repeat(65), cursor: "c" }],
  ]);
});

Deno.test("SessionListResultSchema accepts the spec example and ordered entries", () => {
  assertAccepts(SessionListResultSchema, [
    ["spec example", RESULT],
    ["two ascending", { ...RESULT, sessions: [{ ...ENTRY, session_id: "A" }, ENTRY] }],
    ["busy, no offset", {
      ...RESULT,
      sessions: [{ ...ENTRY, eligibility: "busy", updated_at: "2026-01-01T00:00:00Z" }],
    }],
  ]);
  assertRejects(SessionListResultSchema, [
    ["descending", { ...RESULT, sessions: [ENTRY, { ...ENTRY, session_id: "A" }] }],
    ["duplicate", { ...RESULT, sessions: [ENTRY, ENTRY] }],
    ["unknown eligibility", { ...RESULT, sessions: [{ ...ENTRY, eligibility: "missing" }] }],
    ["non-UTC timestamp", {
      ...RESULT,
      sessions: [{ ...ENTRY, updated_at: "2026-01-01T00:00:00+01:00" }],
    }],
    ["not a timestamp", { ...RESULT, sessions: [{ ...ENTRY, updated_at: "yesterday" }] }],
    ["257-byte title", { ...RESULT, sessions: [{ ...ENTRY, title: "t".repeat(257) }] }],
    ["entry extra", { ...RESULT, sessions: [{ ...ENTRY, path: "/x" }] }],
    ["missing notices", without(RESULT, "notices")],
    ["101 sessions", {
      ...RESULT,
      sessions: Array.from({ length: 101 }, (_, i) => ({ ...ENTRY, session_id: `s${1000 + i}` })),
    }],
  ]);
});
