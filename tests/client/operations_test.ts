import assert from "node:assert/strict";
import { LocalAgentClient } from "../../src/client/client.ts";
import { StaleSnapshot } from "../../src/client/errors.ts";
import { ProtocolError } from "../../src/protocol/errors.ts";
import { BASE_CAPABILITIES } from "../../src/protocol/schemas/capabilities.ts";
import { serve } from "../../src/reference_backend/mod.ts";
import { reapChild } from "../../src/runtime/mod.ts";
import { memoryChild } from "../_kit/mod.ts";

interface Reference {
  client: LocalAgentClient;
  mcHome: string;
  dispose(): Promise<void>;
}

/** A reference backend over a temporary MC_HOME, with a client attached. */
async function startReference(
  setup: (mcHome: string) => Promise<void> = async () => {},
  env: Record<string, string> = {},
): Promise<Reference> {
  const root = await Deno.makeTempDir({ prefix: "magi-client-" });
  const mcHome = `${root}/mc_home`;
  await Deno.mkdir(`${mcHome}/sessions`, { recursive: true });
  await setup(mcHome);
  // Served in this process over in-memory pipes (the kit's memoryChild): nothing is spawned.
  const vars: Record<string, string> = { MC_HOME: mcHome, NO_COLOR: "1", ...env };
  const cwd = await Deno.realPath(root);
  const child = memoryChild((io) =>
    serve({ ...io, cwd, env: (name) => vars[name], selfCheck: true })
  );
  const client = new LocalAgentClient(child, { exitWaitMs: 5_000 });
  return {
    client,
    mcHome,
    async dispose() {
      await client.close();
      await reapChild(child, { closeGraceMs: 500, termGraceMs: 500 });
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

async function writeSessions(mcHome: string, count: number): Promise<void> {
  const cwd = await Deno.realPath(`${mcHome}/..`);
  for (let i = 0; i < count; i++) {
    const id = `s${String(i).padStart(3, "0")}`;
    const line = {
      type: "title",
      session_id: id,
      timestamp: "2026-01-01T00:00:00Z",
      cwd,
      title: id,
    };
    await Deno.writeTextFile(`${mcHome}/sessions/${id}.jsonl`, JSON.stringify(line) + "\n");
  }
}

async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

Deno.test("LocalAgentClient.sessionPages() follows cursors to the end of one snapshot", async () => {
  const ref = await startReference((home) => writeSessions(home, 5));
  try {
    await ref.client.initialize({ required_capabilities: ["session.list"] });
    const pages = await collect(ref.client.sessionPages(2));
    assert.deepEqual(pages.map((p) => p.sessions.length), [2, 2, 1]);
    assert.deepEqual(pages.flatMap((p) => p.sessions.map((s) => s.title)), [
      "s000",
      "s001",
      "s002",
      "s003",
      "s004",
    ]);
    assert.equal(pages.at(-1)?.complete, true);
  } finally {
    await ref.dispose();
  }
});

Deno.test("LocalAgentClient paging helpers stop on stale_revision with StaleSnapshot", async () => {
  const ref = await startReference((home) => writeSessions(home, 3));
  try {
    await ref.client.initialize({ required_capabilities: ["session.list"] });
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const page of ref.client.sessionPages(1)) {
          seen.push(...page.sessions.map((s) => s.session_id));
          await Deno.remove(`${ref.mcHome}/sessions/s002.jsonl`).catch(() => {});
        }
      })(),
      (e) => e instanceof StaleSnapshot && e.code === "stale_revision" && e.what === "sessions",
    );
    assert.deepEqual(seen, ["s000"]);
  } finally {
    await ref.dispose();
  }
});

Deno.test("LocalAgentClient has a typed method for every operation", async () => {
  const ref = await startReference(async (home) => {
    await Deno.mkdir(`${home}/catalog`);
    await Deno.writeTextFile(
      `${home}/catalog/scripted.json`,
      JSON.stringify({
        version: 1,
        provider: "scripted",
        models: [{ id: "scripted-1", efforts: [] }, { id: "scripted-2", efforts: ["high"] }],
      }),
    );
    await Deno.writeTextFile(
      `${home}/settings.json`,
      JSON.stringify({ providers: { catalog: { enabled: ["scripted/*"] } } }),
    );
  });
  try {
    const init = await ref.client.initialize({ required_capabilities: [...BASE_CAPABILITIES] });
    assert.deepEqual(init.capabilities, [...BASE_CAPABILITIES]);
    const session = await ref.client.sessionCreate();
    const catalog = await collect(ref.client.catalogPages(1));
    assert.deepEqual(catalog.flatMap((p) => p.choices.map((c) => c.model)), [
      "scripted-1",
      "scripted-2",
    ]);
    const fresh = await ref.client.modelCatalog();
    const status = await ref.client.status();
    const selected = await ref.client.selectionSet({
      session_id: session.session_id,
      selection_revision: status.selection?.revision ?? "",
      catalog_revision: fresh.revision,
      provider: "scripted",
      model: "scripted-2",
      effort: { mode: "set", value: "high" },
    });
    assert.equal(selected.selection.effective_effort, "high");
    const history = await collect(
      ref.client.historyPages(session.session_id, selected.history_revision ?? ""),
    );
    assert.deepEqual(history.map((p) => p.entries), [[]]);
    const providers = await ref.client.modelCatalogStatus();
    assert.ok(providers.providers.some((p) => p.provider === "scripted"));
    await assert.rejects(
      ref.client.modelRefresh("scripted"),
      (e) => e instanceof ProtocolError && e.code === "catalog_unavailable",
    );
    await assert.rejects(
      ref.client.operationCancel("r1"),
      (e) => e instanceof ProtocolError && e.code === "stale_operation",
    );
    const discovered = await collect(ref.client.discoverPages(10));
    assert.deepEqual(discovered.flatMap((p) => p.sessions.map((s) => s.session_id)), [
      session.session_id,
    ]);
  } finally {
    await ref.dispose();
  }
});

Deno.test("LocalAgentClient.operationCancel() targets a pending request by its ID", async () => {
  const ref = await startReference(async () => {}, { MAGI_OPERATION_DELAY_MS: "5000" });
  try {
    await ref.client.initialize({ required_capabilities: ["session.list", "operation.cancel"] });
    let pendingId = "";
    const listing = ref.client.sessionList({}, { onRequestId: (id) => pendingId = id })
      .then(() => null, (error: unknown) => error);
    const cancelled = await ref.client.operationCancel(pendingId);
    assert.deepEqual(cancelled, { cancellation_requested: true });
    const outcome = await listing;
    assert.ok(outcome instanceof ProtocolError && outcome.code === "operation_cancelled");
  } finally {
    await ref.dispose();
  }
});
