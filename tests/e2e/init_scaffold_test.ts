/**
 * The scaffold `init` writes keeps working as its project grows (issue 32 item 3): its own test
 * task passes after the project gains an OpenAPI source (the generated test runs the CLI with the
 * project's deno.json, not the lockfile of wherever magi-tools lives), the test task can write
 * (`Deno.makeTempDir` in a write tool's test), and the hint for approving the config names the
 * command the project runs (`deno task start trust`). The project lives in a temporary
 * directory outside the checkout and takes magi-tools with `init --from`.
 */
import assert from "node:assert/strict";
import { ROOT, runCli } from "./_cli.ts";

const decoder = new TextDecoder();

async function initProject(): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "magi-tools-scaffold-" });
  const dir = `${parent}/project`;
  const made = await runCli(["init", dir, "--from", ROOT], { raw: true });
  assert.equal(made.code, 0, made.stderr);
  return dir;
}

async function denoTask(dir: string, args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: dir,
    stdin: "null",
    env: { NO_COLOR: "1", XDG_CONFIG_HOME: `${dir}/../config`, ...env },
    signal: AbortSignal.timeout(120_000),
  }).output();
  return {
    code: output.code,
    out: decoder.decode(output.stdout) + decoder.decode(output.stderr),
  };
}

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Books", version: "1" },
  paths: {
    "/books/{id}": {
      get: {
        operationId: "getBook",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "A book" } },
      },
    },
  },
};

const WRITE_TOOL = `import { z } from "zod";
import { defineTool } from "@magi/tools";

export default defineTool({
  name: "note",
  description: "Append a line to out/notes.txt in the working directory.",
  input: z.strictObject({ text: z.string() }),
  effect: "write",
  permissions: { write: ["out"] },
  async run({ text }, ctx) {
    await Deno.mkdir(\`\${ctx.cwd}/out\`, { recursive: true });
    await Deno.writeTextFile(\`\${ctx.cwd}/out/notes.txt\`, text + "\\\\n", { append: true });
    return "noted";
  },
});
`;

const WRITE_TEST = `import assert from "node:assert/strict";
import tool from "../tools/note.ts";

Deno.test("note appends to out/notes.txt in a scratch directory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await tool.run({ text: "hi" }, { cwd: dir, signal: new AbortController().signal } as never);
    assert.equal(await Deno.readTextFile(\`\${dir}/out/notes.txt\`), "hi\\\\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
`;

Deno.test("init project: its test task passes after adding an OpenAPI source and a write tool's test", async () => {
  const dir = await initProject();
  try {
    await Deno.writeTextFile(`${dir}/books.json`, JSON.stringify(SPEC));
    await Deno.writeTextFile(
      `${dir}/magi-tools.jsonc`,
      JSON.stringify({ openapi: { books: { spec: "books.json", baseUrl: "http://127.0.0.1:9" } } }),
    );
    const test = await denoTask(dir, ["test"]);
    assert.equal(test.code, 0, test.out);
    assert.match(test.out, /ok \| 2 passed \| 0 failed/);
    assert.doesNotMatch(test.out, /not in the lockfile/);

    await Deno.writeTextFile(`${dir}/tools/note.ts`, WRITE_TOOL);
    await Deno.writeTextFile(`${dir}/tests/note_test.ts`, WRITE_TEST);
    const withWrite = await denoTask(dir, ["test"]);
    assert.equal(withWrite.code, 0, withWrite.out);
    assert.match(withWrite.out, /ok \| 3 passed \| 0 failed/);
  } finally {
    await Deno.remove(`${dir}/..`, { recursive: true });
  }
});

Deno.test("init project: an unapproved config's hint names `deno task start trust`", async () => {
  const dir = await initProject();
  try {
    await Deno.writeTextFile(
      `${dir}/magi-tools.jsonc`,
      JSON.stringify({ mcpServers: { fs: { command: "true", args: [] } } }),
    );
    const refused = await denoTask(dir, ["start", "tools"]);
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /Project config is not approved/);
    assert.match(refused.out, /deno task start trust \/.*\/project\/magi-tools\.jsonc/);
    assert.doesNotMatch(refused.out, /magi-tools trust/);
  } finally {
    await Deno.remove(`${dir}/..`, { recursive: true });
  }
});
