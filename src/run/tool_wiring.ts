/**
 * The tool-call wiring of a backend connection: the executor that runs the registry's tools and
 * the call session that answers the backend's `client.tool.*` events with it, sharing one
 * `CallRecords` (`src/call/records.ts`) that builds every `tool.*` record of their calls and hands
 * it to the connection's one record sink: the summary output of the current turn.
 *
 * @module
 */

import type { LocalAgentClient } from "../client/client.ts";
import type { RequestBudgetExhausted } from "../client/errors.ts";
import type { AgentEvent } from "../client/events.ts";
import { CallRecords, type RecordSink } from "../call/records.ts";
import { CatalogExecutor } from "../call/catalog_route.ts";
import { ToolExecutor } from "../call/executor.ts";
import { SIGN_IN_REQUIRED } from "../tool/external.ts";
import { callApprover, type TurnApprovals } from "./approvals.ts";
import { sayKernelMissing } from "./kernel_sandbox.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import type { ProcessLimits } from "../sandbox/containment.ts";
import type { KernelSupport } from "../sandbox/kernel_policy.ts";
import { ToolCallSession } from "../call/client_tools.ts";
import type { ClientToolsDescriptor } from "../protocol/schemas/mod.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import type { ArgumentsRecorder } from "./record_args.ts";

/** At most this many process-isolated tools are started before their first call. */
export const PREWARM_MAX_TOOLS = 8;

/** Options of {@link wireTools}. */
export interface ToolWiringOptions {
  /** The connected client (its `client.tool.*` events are subscribed to). */
  readonly client: LocalAgentClient;
  /** The tools. */
  readonly registry: ToolRegistry;
  /** The negotiated `client.tools` descriptor (its limits bound the calls). */
  readonly descriptor: ClientToolsDescriptor;
  /** The tools' working directory. */
  readonly cwd: string;
  /** The kernel layer's availability. */
  readonly kernel: KernelSupport;
  /** How a tool's own processes are contained (null: no tool process). */
  readonly limits: ProcessLimits | null;
  /** Put `arguments_preview` on `tool.call` records. */
  readonly argumentsPreview: boolean;
  /** Put the (redacted) arguments on `tool.call` records (`--record-args`). */
  readonly recordArguments?: ArgumentsRecorder;
  /**
   * The current turn's summary output: the calls' `tool.*` and `approval` records go there (on a
   * batch slot's later items: that item's writer).
   */
  readonly records: () => SummaryWriter;
  /**
   * Write tool calls are put to the current turn's approver (`approvals.ts`) when it asks at
   * call time, with `expiryMs` (the backend's `approval_expiry_ms`) to answer.
   */
  readonly approvals?: TurnApprovals;
  /** No further tool result can be sent: the connection cancels the turn. */
  readonly onRequestBudgetExhausted: (error: RequestBudgetExhausted) => void;
  /** Tool `name`'s source needs a sign-in (`sign_in_required`): the connection ends the turn. */
  readonly onSignInRequired?: (name: string) => void;
}

/** The wired executor and call session; `unsubscribe` detaches the session from the events. */
export interface ToolWiring {
  /** Runs the tools (closed by the connection's stop). */
  readonly executor: ToolExecutor;
  /** Answers the backend's tool calls. */
  readonly calls: ToolCallSession;
  /** Stop handing the client's events to the call session. */
  readonly unsubscribe: () => void;
}

/** Build the executor and the call session of a connection and subscribe the session. */
export function wireTools(options: ToolWiringOptions): ToolWiring {
  const { client, registry, descriptor } = options;
  const emit = recordSink(options);
  // Every tool.* record of the connection's calls, handed to `emit`; each names its run from the
  // call. The executor (tool.log, tool.progress) and the session (the others) share it.
  const records = new CallRecords({
    argumentsPreview: options.argumentsPreview,
    recordArguments: options.recordArguments,
    typed: (name) => registry.get(name)?.outputSchema !== undefined,
    emit,
  });
  const executor = new ToolExecutor(registry, {
    limits: descriptor.limits,
    cwd: options.cwd,
    kernelSandbox: options.kernel,
    records,
    ...(options.approvals === undefined ? {} : {
      approveCall: callApprover(options.approvals, emit),
      callHooks: () => options.approvals?.turn()?.callHooks,
    }),
    ...(options.limits === null ? {} : { processLimits: options.limits }),
  });
  // More than 32 tools: tool_search and the dispatchers route to the same executor.
  const routed = registry.hasCatalog ? new CatalogExecutor(registry, executor) : executor;
  const calls = new ToolCallSession(client, routed, {
    records,
    // No further tool result can be sent: cancel the turn (turn.cancel uses the
    // connection's reserved IDs), then end with one host.error (exit 1).
    onRequestBudgetExhausted: options.onRequestBudgetExhausted,
  });
  const unsubscribe = client.subscribe((event: AgentEvent) => calls.handle(event));
  return { executor, calls, unsubscribe };
}

/**
 * The connection's one record sink: the current turn's writer. A `tool.result` answered
 * `sign_in_required` also tells `onSignInRequired` (the connection ends the turn).
 */
function recordSink(options: ToolWiringOptions): RecordSink {
  return (record) => {
    options.records().emit(record);
    if (record.type === "tool.result" && record.error_code === SIGN_IN_REQUIRED) {
      options.onSignInRequired?.(record.name);
    }
  };
}

/**
 * After `host.ready`: say once when tool modules run without the kernel layer (a `host.warning`
 * on `writer` and a line on stderr, `kernel_sandbox.ts`), then start the tool processes while the
 * session and the model start (a first call then skips the ~0.1–0.2 s process start). Each warm
 * process holds a Deno runtime, so large tool sets start on first use instead.
 */
export function startTools(
  registry: ToolRegistry,
  executor: ToolExecutor,
  after: { readonly kernel: KernelSupport; readonly writer: SummaryWriter },
): void {
  sayKernelMissing(registry.tools, after.kernel, after.writer);
  const isolated = registry.tools.filter((t) => t.kind === "process").length;
  if (isolated <= PREWARM_MAX_TOOLS) {
    executor.prewarm().catch((error: unknown) => {
      writeStderrLine(`magi-tools: Cannot prewarm tool processes: ${String(error)}`);
    });
  }
}
