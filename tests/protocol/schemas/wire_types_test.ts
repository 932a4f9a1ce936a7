/**
 * Each wire type is written once, as a type (`src/protocol/schemas/*.ts`); its schema is
 * built by the family's `build()` and exported typed as that type. These type-level
 * checks compare, per family, the type zod infers from each built schema with its type,
 * both ways: a field added, dropped, renamed or retyped on one side only fails `deno check`.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import type * as catalog from "../../../src/protocol/schemas/catalog.ts";
import type * as clientTools from "../../../src/protocol/schemas/client_tools.ts";
import type * as discovery from "../../../src/protocol/schemas/discovery.ts";
import type * as events from "../../../src/protocol/schemas/events.ts";
import type * as frames from "../../../src/protocol/schemas/frames.ts";
import type * as history from "../../../src/protocol/schemas/history.ts";
import type * as initialize from "../../../src/protocol/schemas/initialize.ts";
import type * as optIn from "../../../src/protocol/schemas/opt_in.ts";
import type * as paging from "../../../src/protocol/schemas/paging.ts";
import type * as selection from "../../../src/protocol/schemas/selection.ts";
import type * as session from "../../../src/protocol/schemas/session.ts";
import type * as status from "../../../src/protocol/schemas/status.ts";
import type * as toolCards from "../../../src/protocol/schemas/tool_cards.ts";
import type * as turn from "../../../src/protocol/schemas/turn.ts";
import { parseEventData, parseParams, parseResult } from "../../../src/protocol/schemas/mod.ts";

/** True when `A` and `B` are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
/** Compiles only for `true`. */
function assertType<_T extends true>(): void {}

/**
 * The names of family `Built` whose inferred type is not exactly its type in `Types`, or
 * that one side lacks (`never` when the family matches).
 */
type Mismatched<Built, Types> =
  | {
    [K in keyof Types]: K extends keyof Built
      ? Equal<z.output<Built[K]>, Types[K]> extends true ? never : K
      : K;
  }[keyof Types]
  | Exclude<keyof Built, keyof Types>;

Deno.test("the check can fail: a type one field off is not equal", () => {
  assertType<Equal<Equal<Omit<events.DiagnosticData, "code">, events.DiagnosticData>, false>>();
  assertType<Equal<Equal<events.DiagnosticData & { x: 1 }, events.DiagnosticData>, false>>();
  assertType<
    Equal<Mismatched<{ A: z.ZodString }, { A: number; B: string }>, "A" | "B">
  >();
  assertType<Equal<Mismatched<{ A: z.ZodString; C: z.ZodString }, { A: string }>, "C">>();
});

Deno.test("events: each schema infers exactly its type", () => {
  assertType<
    Equal<
      Mismatched<events.EventSchemas, {
        InputPersistedDataSchema: events.InputPersistedData;
        MessageDeltaDataSchema: events.MessageDeltaData;
        MessageReconcileDataSchema: events.MessageReconcileData;
        ActivityDataSchema: events.ActivityData;
        ApprovalRequestedDataSchema: events.ApprovalRequestedData;
        DiagnosticDataSchema: events.DiagnosticData;
        RunFinishedDataSchema: events.RunFinishedData;
      }>,
      never
    >
  >();
});

Deno.test("turn, session, paging: each schema infers exactly its type", () => {
  assertType<
    Equal<
      Mismatched<turn.TurnSchemas, {
        TurnStartParamsSchema: turn.TurnStartParams;
        TurnStartResultSchema: turn.TurnStartResult;
        TurnCancelParamsSchema: turn.TurnCancelParams;
        CancellationRequestedSchema: turn.CancellationRequested;
        ApprovalAnswerParamsSchema: turn.ApprovalAnswerParams;
        ApprovalAnswerResultSchema: turn.ApprovalAnswerResult;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<session.SessionSchemas, {
        SessionCreateResultSchema: session.SessionCreateResult;
        SessionOpenParamsSchema: session.SessionOpenParams;
        SessionOpenResultSchema: session.SessionOpenResult;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<paging.PagingSchemas, { SnapshotPageParamsSchema: paging.SnapshotPageParams }>,
      never
    >
  >();
});

Deno.test("catalog, discovery, opt-in: each schema infers exactly its type", () => {
  assertType<
    Equal<
      Mismatched<catalog.CatalogSchemas, {
        CatalogChoiceSchema: catalog.CatalogChoice;
        ModelCatalogResultSchema: catalog.ModelCatalogResult;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<discovery.DiscoverySchemas, {
        EligibilitySchema: discovery.Eligibility;
        SessionListEntrySchema: discovery.SessionListEntry;
        SessionListEntriesSchema: discovery.SessionListEntry[];
        SessionListResultSchema: discovery.SessionListResult;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<optIn.OptInSchemas, {
        OperationCancelParamsSchema: optIn.OperationCancelParams;
        SessionDiscoverParamsSchema: optIn.SessionDiscoverParams;
        SessionDiscoverResultSchema: optIn.SessionDiscoverResult;
        ProviderCatalogStatusSchema: optIn.ProviderCatalogStatus;
        ModelCatalogStatusResultSchema: optIn.ModelCatalogStatusResult;
        ModelRefreshParamsSchema: optIn.ModelRefreshParams;
        ModelRefreshResultSchema: optIn.ModelRefreshResult;
      }>,
      never
    >
  >();
});

Deno.test("selection, status, initialize: each schema infers exactly its type", () => {
  assertType<
    Equal<
      Mismatched<selection.SelectionSchemas, {
        SelectionSchema: selection.Selection;
        EffortRequestSchema: selection.EffortRequest;
        SelectionSetParamsSchema: selection.SelectionSetParams;
        SelectionSetResultSchema: selection.SelectionSetResult;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<status.StatusSchemas, {
        StatusStateSchema: status.StatusState;
        ReadinessSchema: status.Readiness;
        StatusSchema: status.Status;
        ShutdownResultSchema: status.ShutdownResult;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<initialize.InitializeSchemas, {
        InitializeParamsSchema: initialize.InitializeParams;
        LimitsSchema: initialize.LimitsObject;
        DescriptorsSchema: initialize.Descriptors;
        InitializeResultSchema: initialize.InitializeResult;
      }>,
      never
    >
  >();
});

Deno.test("client tools, tool cards, history: each schema infers exactly its type", () => {
  assertType<
    Equal<
      Mismatched<clientTools.ClientToolSchemas, {
        ToolEffectSchema: clientTools.ToolEffect;
        ClientToolDefinitionSchema: clientTools.ClientToolDefinition;
        ClientToolDefinitionsSchema: clientTools.ClientToolDefinitions;
        ClientToolsLimitsSchema: clientTools.ClientToolsLimitsObject;
        RegisteredClientToolSchema: clientTools.RegisteredClientTool;
        ClientToolsDescriptorSchema: clientTools.ClientToolsDescriptor;
        ClientToolCallDataSchema: clientTools.ClientToolCallData;
        ClientToolCancelReasonSchema: clientTools.ClientToolCancelReason;
        ClientToolCancelDataSchema: clientTools.ClientToolCancelData;
        ClientToolOutcomeSchema: clientTools.ClientToolOutcome;
        ClientToolResultParamsSchema: clientTools.ClientToolResultParams;
        ClientToolResultResultSchema: clientTools.ClientToolResultResult;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<toolCards.ToolCardSchemas, {
        ToolCardsLimitsSchema: toolCards.ToolCardsLimitsObject;
        ToolCardsDescriptorSchema: toolCards.ToolCardsDescriptor;
        ToolCardFieldSchema: toolCards.ToolCardField;
        ToolCardStateSchema: toolCards.ToolCardState;
        ToolCardDataSchema: toolCards.ToolCardData;
      }>,
      never
    >
  >();
  assertType<
    Equal<
      Mismatched<history.HistorySchemas, {
        HistoryPageParamsSchema: history.HistoryPageParams;
        BaseHistoryEntrySchema: history.BaseHistoryEntry;
        HistoryEntrySchema: history.HistoryEntry;
        BaseHistoryPageResultSchema: history.BaseHistoryPageResult;
        HistoryPageResultSchema: history.HistoryPageResult;
      }>,
      never
    >
  >();
});

Deno.test("frames: each schema infers exactly its type", () => {
  assertType<
    Equal<
      Mismatched<frames.FrameSchemas, {
        RequestFrameSchema: frames.RequestFrame;
        ResultResponseFrameSchema: frames.ResultResponseFrame;
        ErrorResponseFrameSchema: frames.ErrorResponseFrame;
        ResponseFrameSchema: frames.ResponseFrame;
        EventFrameSchema: frames.EventFrame;
        OutputFrameSchema: frames.OutputFrame;
      }>,
      never
    >
  >();
});

Deno.test("parseParams/parseResult/parseEventData return a valid value and name what is wrong", () => {
  assert.deepEqual(parseParams("turn.start", { session_id: "s1", prompt: "hi" }), {
    session_id: "s1",
    prompt: "hi",
  });
  assert.throws(
    () => parseParams("turn.start", { session_id: "s1", prompt: "hi", extra: 1 }),
    (error: unknown) => error instanceof TypeError && /turn\.start params/.test(error.message),
  );
  assert.throws(() => parseParams("turn.start", { session_id: "s1", prompt: " " }), TypeError);
  assert.deepEqual(parseResult("shutdown", { state: "stopping" }), { state: "stopping" });
  assert.throws(
    () => parseResult("shutdown", { state: "idle" }),
    (error: unknown) =>
      error instanceof TypeError && /^Invalid shutdown result: state:/.test(error.message),
  );
  const data = { session_id: "s1", run_id: "r1", code: "x", summary: "s" };
  assert.deepEqual(parseEventData("diagnostic", data), data);
  assert.throws(() => parseEventData("diagnostic", { ...data, code: "Not A Code" }), TypeError);
});
