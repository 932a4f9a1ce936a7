/** Start `inspect` as a child process over a temporary tools directory (test helper). */
import assert from "node:assert/strict";
import { root as ROOT, spawnCli } from "../_kit/mod.ts";

export { ROOT };

/** Scenario of the browser tests. */
export const SCENARIO = `${ROOT}tests/inspect/fixtures/scenario.jsonc`;

/** A tool module importing this checkout (written into a temporary directory). */
export function toolSource(body: string): string {
  return `import { z } from "zod";\nimport { defineTool } from "${ROOT}mod.ts";\n\n${body}\n`;
}

/** The fixture tools, by file name. */
export const FIXTURE_TOOLS: Record<string, string> = {
  "form_echo.ts": toolSource(`export default defineTool({
  name: "form_echo",
  description: "Echo the arguments as JSON (a schema with every kind of field).",
  input: z.strictObject({
    title: z.string().describe("A title"),
    count: z.int().min(0),
    loud: z.boolean(),
    color: z.enum(["red", "green", "blue"]),
    tags: z.array(z.string()),
    owner: z.strictObject({ name: z.string(), age: z.number().optional() }),
    note: z.string().optional(),
  }),
  effect: "read",
  run(args) {
    console.log("form_echo called");
    return JSON.stringify(args);
  },
});`),
  "slow.ts": toolSource(`export default defineTool({
  name: "slow",
  description: "Wait the given milliseconds, honouring cancellation.",
  input: z.strictObject({ ms: z.int().min(0).max(120000) }),
  effect: "read",
  run({ ms }, ctx) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve("slept " + ms), ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("stopped"));
      }, { once: true });
    });
  },
});`),
  "note.ts": toolSource(`export default defineTool({
  name: "note",
  description: "Pretend to write a note (needs approval).",
  input: z.strictObject({ text: z.string() }),
  effect: "write",
  run({ text }) {
    return "noted " + text;
  },
});`),
};

/** A running inspector. */
export interface Inspector {
  /** The printed URL (with the token). */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly base: string;
  /** The session token. */
  readonly token: string;
  /** The port. */
  readonly port: number;
  /** The temporary tools directory. */
  readonly toolsDir: string;
  /** stderr so far. */
  stderr(): string;
  /** SIGINT, wait for the exit; resolves with the exit code. Removes the temporary files. */
  stop(): Promise<number>;
}

/** Options of {@link startInspector}. */
export interface InspectorOptions {
  /** Working directory of the inspector; default the repository root. */
  readonly cwd?: string;
  /** Arguments after `inspect`; default `--tools` of the fresh copy of the fixture tools. */
  readonly args?: readonly string[];
  /** Added to the inspector's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** A command the inspector runs under (`[program, ...args]`, then `deno run …`). */
  readonly wrapper?: readonly string[];
}

/** Start `deno run -A mod.ts inspect` over a fresh copy of the fixture tools. */
export async function startInspector(options: InspectorOptions = {}): Promise<Inspector> {
  const toolsDir = await Deno.makeTempDir({ prefix: "magi-tools-inspect-tools-" });
  const home = await Deno.makeTempDir({ prefix: "magi-tools-inspect-home-" });
  for (const [file, text] of Object.entries(FIXTURE_TOOLS)) {
    await Deno.writeTextFile(`${toolsDir}/${file}`, text);
  }
  const child = spawnCli(["inspect", ...(options.args ?? ["--tools", toolsDir])], {
    ...(options.wrapper === undefined ? {} : { wrap: options.wrapper }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    home,
    backendSelfCheck: false,
    env: { MAGI_SCENARIO: SCENARIO, ...options.env },
  });
  let stderr = "";
  const stderrDone = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  clearTimeout(guard);
  const url = out.match(/http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+/)?.[0];
  if (url === undefined) {
    child.kill("SIGKILL");
    await child.status;
    throw new Error(`inspect printed no URL: ${out}\n${stderr}`);
  }
  const drain = (async () => {
    for (;;) if ((await reader.read()).done) break;
  })();
  const parsed = new URL(url);
  return {
    url,
    base: parsed.origin,
    token: parsed.searchParams.get("token")!,
    port: Number(parsed.port),
    toolsDir,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGINT");
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const status = await child.status;
      clearTimeout(killer);
      await Promise.all([drain, stderrDone]);
      await Deno.remove(toolsDir, { recursive: true }).catch(() => {});
      await Deno.remove(home, { recursive: true }).catch(() => {});
      assert.ok(status.signal === null, `inspect was killed: ${stderr}`);
      return status.code;
    },
  };
}

/** Send one raw HTTP/1.1 request (any Host header) and return the status code. */
export async function rawStatus(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const lines = [
      `GET ${path} HTTP/1.1`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    await conn.write(
      new TextEncoder().encode(lines.join("\r\n") + "\r\nConnection: close\r\n\r\n"),
    );
    const buffer = new Uint8Array(1024);
    const n = await conn.read(buffer);
    const head = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
    const status = head.match(/^HTTP\/1\.1 (\d{3})/)?.[1];
    assert.ok(status !== undefined, head);
    return Number(status);
  } finally {
    conn.close();
  }
}
