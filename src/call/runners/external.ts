/**
 * The runner of `external` tools (MCP servers, OpenAPI operations, `../external.ts`): the
 * arguments are checked by the source's `validate`, and the call runs in the host (the work
 * happens in the source) as an inline tool's does (`runInHost`): same signal, deadline and
 * grace, with the source's context (`progress` takes an update object).
 *
 * @module
 */

import { invalidArgumentsReason } from "../../tool/answers.ts";
import type { ExternalTool, ExternalToolContext } from "../../tool/external.ts";
import type { RegisteredToolOf } from "../../toolset/registry.ts";
import { runInHost } from "./inline.ts";
import type {
  CallProgress,
  Checked,
  RunControl,
  RunnerEnv,
  Settled,
  ToolRunner,
} from "./runner.ts";

/** The runner of `external` tools. */
export class ExternalRunner implements ToolRunner<RegisteredToolOf<"external", ExternalTool>> {
  readonly #env: RunnerEnv;

  /** A runner sharing the executor's `env`. */
  constructor(env: RunnerEnv) {
    this.#env = env;
  }

  /** The source's verdict on the arguments (an object is required first). */
  check(entry: RegisteredToolOf<"external", ExternalTool>, args: unknown): Checked {
    const reason = externalInvalid(entry.tool, args);
    return reason === null
      ? { success: true, data: args }
      : { success: false, answer: invalidArgumentsReason(reason) };
  }

  /** Run the source's `run` in the host. */
  run(
    entry: RegisteredToolOf<"external", ExternalTool>,
    args: unknown,
    control: RunControl,
  ): Promise<Settled> {
    return runInHost(
      this.#env,
      entry.tool,
      args as Record<string, unknown>,
      control,
      sourceProgress,
    );
  }
}

/** A source's `ctx.progress(update)` over the call's progress. */
function sourceProgress(progress: CallProgress): ExternalToolContext["progress"] {
  return (update) => progress.push(update);
}

/** The source's verdict on `args` (an object is required first); a throwing validator is a reason. */
function externalInvalid(tool: ExternalTool, args: unknown): string | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return "arguments must be a JSON object";
  }
  try {
    return tool.validate(args);
  } catch (error) {
    return `cannot be checked: ${error instanceof Error ? error.message : String(error)}`;
  }
}
