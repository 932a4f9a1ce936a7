/**
 * The CLI entry: parse arguments, dispatch subcommands, map outcomes to
 * exit codes. stdout carries NDJSON summaries only (for `run`/`demo`).
 *
 * Only argument parsing is loaded up front: each subcommand's modules are
 * imported when it runs, so `--version` and `--help` load no protocol code
 * and `run` starts loading the host at once (`commands/run.ts`).
 *
 * @module
 */

import { type CliArgs, COMMANDS, parseCli } from "./args/mod.ts";
import { invocation } from "./args/suggest.ts";
import { EXIT, exitCode } from "../run/exit_codes.ts";
import { isHostError } from "../errors/mod.ts";
import { writeStderrLine, writeStdout } from "../runtime/mod.ts";
import { PACKAGE_VERSION } from "../host/version.ts";

const encoder = new TextEncoder();

/** Route console output that would reach stdout to stderr (tool modules may log). */
async function redirectConsole(): Promise<void> {
  const { redirectConsoleToStderr } = await import("../tool/console.ts");
  redirectConsoleToStderr();
}

/** Run the CLI with `argv` (without the program); resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(parseCli(argv));
  } catch (error) {
    if (isHostError(error, "usage")) {
      writeStderrLine(`magi-tools: ${error.message}`);
      // The help of the command at fault, named as the user ran the CLI (`deno task start …`).
      const command = COMMANDS.includes(argv[0] ?? "") && argv[0] !== "help" ? ` ${argv[0]}` : "";
      writeStderrLine(`Run '${invocation()}${command} --help' for usage.`);
      return exitCode(error.code);
    }
    if (isHostError(error, "backend_unavailable")) {
      // No backend named and none found (src/run/agent.ts): the fix is in the message.
      writeStderrLine(`magi-tools: ${error.message}`);
      return exitCode(error.code);
    }
    throw error;
  }
}

/** Run the subcommand `args` names, its modules loaded now; resolves with its exit code. */
async function dispatch(args: CliArgs): Promise<number> {
  switch (args.command) {
    case "help": {
      const { helpText } = await import("./help/mod.ts");
      await writeStdout(encoder.encode(helpText(args.topic)));
      return EXIT.ok;
    }
    case "version":
      await writeStdout(encoder.encode(`magi-tools ${PACKAGE_VERSION}\n`));
      return EXIT.ok;
    case "tools": {
      const { toolsCommand } = await withConsoleRedirected(import("./commands/tools.ts"));
      return await toolsCommand(args);
    }
    case "demo": {
      const { demoCommand } = await withConsoleRedirected(import("./commands/demo.ts"));
      return await demoCommand(args);
    }
    case "mcp": {
      const { mcpCommand } = await withConsoleRedirected(import("./commands/mcp.ts"));
      return await mcpCommand(args);
    }
    case "run": {
      const { runCommand } = await withConsoleRedirected(import("./commands/run.ts"));
      return await runCommand(args);
    }
    case "batch": {
      const { batchCommand } = await withConsoleRedirected(import("../batch/command.ts"));
      return await batchCommand(args);
    }
    case "report": {
      const { reportCommand } = await import("../report/command.ts");
      return await reportCommand(args);
    }
    case "sessions":
    case "history":
    case "models":
    case "select": {
      const { browseCommand } = await withConsoleRedirected(import("./commands/browse.ts"));
      return await browseCommand(args);
    }
    case "call": {
      const { callCommand } = await withConsoleRedirected(import("./commands/call.ts"));
      return await callCommand(args);
    }
    case "init": {
      const { initCommand } = await import("./commands/init.ts");
      return await initCommand(args);
    }
    case "trust": {
      const { trustCommand } = await import("./commands/trust.ts");
      return await trustCommand(args);
    }
    case "login":
    case "logout": {
      const { loginCommand } = await import("./commands/login.ts");
      return await loginCommand(args);
    }
    case "inspect": {
      const { inspectCommand } = await withConsoleRedirected(import("../inspect/mod.ts"));
      return await inspectCommand(args);
    }
  }
}

/**
 * `module` once it loaded, console output routed to stderr meanwhile (for the commands that load
 * tool modules, which may log).
 */
async function withConsoleRedirected<T>(module: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([module, redirectConsole()]);
  return loaded;
}
