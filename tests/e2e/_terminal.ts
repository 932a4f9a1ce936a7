/** Run a command on a real terminal (a pseudo-terminal driven by python3) and type Ctrl-C. */
import { type Rec, REFERENCE_AGENT, ROOT, SCENARIO } from "./_cli.ts";

const PTY = `${ROOT}tests/e2e/fixtures/pty_ctrl_c.py`;

/** Whether setsid(1) is installed. */
export const HAS_SETSID = ["/usr/bin/setsid", "/bin/setsid"].some((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/** Whether python3 with its `pty` module runs. */
export async function hasPython(): Promise<boolean> {
  try {
    return (await new Deno.Command("python3", { args: ["-c", "import pty"] }).output()).success;
  } catch {
    return false;
  }
}

/** Options of {@link runCommandOnTerminal}. */
export interface TerminalOptions {
  /** Type a second Ctrl-C this long after the first. */
  secondAfterMs?: number;
  /** Extra environment. */
  env?: Record<string, string>;
  /** No terminal: send SIGINT to the command's whole process group (`kill -INT -- -PGID`). */
  group?: boolean;
}

/** What a command run on a terminal produced; `code` is -2 when SIGINT killed it. */
export interface TerminalResult {
  code: number;
  records: Rec[];
  stderr: string;
}

/** Run `command` on a terminal from the repository root; Ctrl-C once stdout contains `trigger`. */
export async function runCommandOnTerminal(
  trigger: string,
  command: string[],
  options: TerminalOptions = {},
): Promise<TerminalResult> {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-pty-" });
  try {
    const output = await new Deno.Command("python3", {
      args: [
        PTY,
        trigger,
        ...(options.secondAfterMs === undefined
          ? []
          : ["--second-after", String(options.secondAfterMs)]),
        ...(options.group ? ["--group"] : []),
        ...command,
      ],
      cwd: ROOT,
      stdin: "null",
      env: {
        NO_COLOR: "1",
        MC_HOME: home,
        MAGI_CODE_AGENT: REFERENCE_AGENT,
        MAGI_SCENARIO: SCENARIO,
        ...options.env,
      },
    }).output();
    const result = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      code: number;
      stdout: string;
      stderr: string;
    };
    const records = result.stdout.split("\n").filter((line) => line !== "").map((line) =>
      JSON.parse(line) as Rec
    );
    return { code: result.code, records, stderr: result.stderr };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Run the CLI on a terminal; Ctrl-C once a stdout line contains `trigger`. */
export function runOnTerminal(
  trigger: string,
  args: string[],
  secondAfterMs?: number,
  env: Record<string, string> = {},
  flags: string[] = ["-A"],
): Promise<TerminalResult> {
  return runCommandOnTerminal(
    trigger,
    [Deno.execPath(), "run", ...flags, `${ROOT}mod.ts`, ...args],
    {
      ...(secondAfterMs === undefined ? {} : { secondAfterMs }),
      env,
    },
  );
}
