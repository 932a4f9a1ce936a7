/**
 * `inspect`: a local web inspector for tool authors (Deno only). Loads the
 * tool set, watches the tool directories, serves the page on 127.0.0.1 with
 * a random session token and prints the URL; Ctrl-C stops it (a running turn
 * is cancelled, every backend and tool process reaped), exit 130.
 *
 * Parts: `security.ts` (the request gate), `tool_set.ts` (registry,
 * executor, live reload), `turns.ts` (turns as `run` makes them, approvals
 * and cancel from the page), `sessions.ts` (sessions and history),
 * `server.ts` (HTTP API and the event stream), `page.ts` (the page's markup,
 * with `page_style.ts` and `page_script.ts`, whose parts are
 * `page_tools_script.ts`, `page_form_script.ts` and `page_turns_script.ts`),
 * `sign_in.ts` and `sign_in_page.ts` (the sign-in button of an MCP server that
 * needs one).
 *
 * @module
 */

import { type AgentCommand, resolveAgentCommand } from "../run/agent.ts";
import { planTools, withPlannedSources } from "../run/sources.ts";
import type { ExternalTool } from "../tool/external.ts";
import type { ConfigArgs, ToolDirArgs } from "../run/command_options.ts";
import { exitCode } from "../run/exit_codes.ts";
import { isReported, UsageError } from "../errors/mod.ts";
import {
  currentDir,
  isAddrInUse,
  isDirectory,
  onInterrupt,
  realPath,
  runtimeName,
  writeStderrLine,
  writeStdout,
} from "../runtime/mod.ts";
import { newToken } from "./security.ts";
import { type ApprovalPolicy, parseApproveFlags, withConfigRules } from "../call/approval_rules.ts";
import { InspectServer } from "./server.ts";
import { type LoadProblem, ToolSet } from "./tool_set.ts";
import { SignIns } from "./sign_in.ts";
import type { McpServerConfig } from "../config/mod.ts";
import { Turns } from "./turns.ts";

export { checkRequest, newToken } from "./security.ts";
export { InspectServer } from "./server.ts";
export { ToolSet } from "./tool_set.ts";

/** `inspect` options (`src/cli/args/author_commands.ts` parses them from the command line). */
export interface InspectOptions extends ConfigArgs, ToolDirArgs {
  /** `--port` (0: a free port). */
  port: number;
  /** `--agent` command line (fixed for the inspector's lifetime). */
  agent: string | undefined;
  /** `--cwd`. */
  cwd: string | undefined;
  /** `--start-timeout`, ms: the sources' and each turn's backend's start deadline (default 60 s). */
  startTimeoutMs?: number;
  /** `--approve` rules (absent: the page decides every write tool call). */
  approvals?: ApprovalPolicy;
}

/** Run `inspect` until SIGINT; resolves with the exit code. */
export async function inspectCommand(args: InspectOptions): Promise<number> {
  if (runtimeName() !== "deno") {
    throw new UsageError("Command inspect needs Deno (the npm package has no inspector)");
  }
  let cwd = currentDir();
  if (args.cwd !== undefined) {
    if (!(await isDirectory(args.cwd))) {
      throw new UsageError(`Option --cwd is not a directory: ${args.cwd}`);
    }
    cwd = await realPath(args.cwd);
  }
  // Without --tools, a missing ./tools is no error when the config has a source (planTools).
  const plan = await planTools({ ...args, cwd });
  if (isReported(plan)) return exitCode(plan.code);
  for (const dir of plan.toolDirs) {
    if (!(await isDirectory(dir))) {
      throw new UsageError(`Option --tools is not a directory: ${dir}`);
    }
  }
  const agent = await resolveAgentCommand(args.agent, { missing: "magi-code" });
  // The config's sources (MCP servers) start once, for the Tools view; each turn starts its own,
  // as run does. Edits of the config file need a restart. A server that needs a sign-in is left
  // out and shown on the page with the `login` command to run and a sign-in button (sign_in.ts).
  const sourceProblems: LoadProblem[] = [];
  const needSignIn: McpServerConfig[] = [];
  return await withPlannedSources(
    plan,
    cwd,
    (external) =>
      serve(
        {
          ...args,
          toolDirs: plan.toolDirs,
          // The flags' approval rules first, then the config's; the default asks the page.
          approvals: withConfigRules(
            args.approvals ?? parseApproveFlags([], "ask"),
            plan.config.approvals ?? [],
          ),
        },
        cwd,
        agent,
        {
          external,
          configFiles: plan.config.files,
          problems: sourceProblems,
          needSignIn,
        },
      ),
    args.startTimeoutMs,
    (source, message) => {
      writeStderrLine(`magi-tools: ${message}`);
      sourceProblems.push({ file: source, reason: message });
      const server = plan.config.mcpServers.find((entry) => `mcp:${entry.name}` === source);
      if (server !== undefined) needSignIn.push(server);
    },
  );
}

async function serve(
  args: InspectOptions,
  cwd: string,
  agent: AgentCommand,
  sources: {
    external: readonly ExternalTool[];
    configFiles: readonly string[];
    problems: readonly LoadProblem[];
    needSignIn: readonly McpServerConfig[];
  },
): Promise<number> {
  let server: InspectServer | null = null;
  const signIns = new SignIns({
    servers: sources.needSignIn,
    cwd,
    startTimeoutMs: args.startTimeoutMs,
    onSignedIn: (source, added) => tools.addSource(source, added),
    onChange: () => server?.broadcast("tools", tools.view()),
  });
  const tools: ToolSet = new ToolSet({
    dirs: args.toolDirs,
    external: sources.external,
    sourceProblems: sources.problems,
    configFiles: sources.configFiles,
    cwd,
    onLog: (log) => server?.log(log.callId, log.text),
    signIns: () => signIns.view(),
    onChange: (view) => {
      server?.broadcast("tools", view);
      for (const error of view.errors.filter((error) => !sources.problems.includes(error))) {
        writeStderrLine(`magi-tools: Tool set not reloaded: ${error.file}: ${error.reason}`);
      }
    },
  });
  await tools.reload();
  tools.watch();
  const turns = new Turns({
    agent,
    cwd,
    toolDirs: args.toolDirs,
    config: args,
    ...(args.approvals === undefined ? {} : { approvals: args.approvals }),
    ...(args.startTimeoutMs === undefined ? {} : { startTimeoutMs: args.startTimeoutMs }),
    onEvent: (event) => server?.broadcast(event.type, event),
  });
  try {
    server = new InspectServer({
      port: args.port,
      token: newToken(),
      tools,
      turns,
      signIns,
      agent,
      cwd,
      agentLabel: agent.label,
    });
  } catch (error) {
    await signIns.close();
    await tools.close();
    if (isAddrInUse(error)) {
      throw new UsageError(`Option --port is in use: ${args.port}`);
    }
    throw error;
  }
  // Not Promise.withResolvers: the npm package runs this on Node.js 20, which lacks it.
  let stop = () => {};
  const stopped = { promise: new Promise<void>((resolve) => (stop = resolve)) };
  const removeInterrupt = onInterrupt(() => stop());
  await writeStdout(
    new TextEncoder().encode(
      `magi-tools inspect: ${server.url}\n(open it in a browser; Ctrl-C stops the inspector)\n`,
    ),
  );
  try {
    await stopped.promise;
  } finally {
    removeInterrupt();
    await turns.close();
    await server.close();
    await signIns.close();
    await tools.close();
  }
  return exitCode("interrupted");
}
