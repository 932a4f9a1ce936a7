/**
 * Usage errors suggest the nearest option or command and name the command as the user ran it
 * (issue 24 item 9): through `deno task start` the hint says `deno task start … --help`, through
 * plain `deno run` it says `magi-tools … --help`; correct spellings still work.
 */
import assert from "node:assert/strict";
import { closestWord, didYouMean } from "../../../src/cli/args/suggest.ts";
import { ROOT } from "../../e2e/_cli.ts";

async function stderrOf(args: string[]): Promise<{ code: number; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
    signal: AbortSignal.timeout(60_000),
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

const TASK = ["task", "--quiet", "start"];
const PLAIN = ["run", `--lock=${ROOT}deno.full.lock`, "-A", `${ROOT}cli.ts`];

Deno.test("usage errors through `deno task start`: did you mean, and the task's own help command", async () => {
  const command = await stderrOf([...TASK, "rnu", "hi"]);
  assert.equal(command.code, 2);
  assert.equal(
    command.stderr,
    "magi-tools: Unknown command: rnu (did you mean 'run'?)\n" +
      "Run 'deno task start --help' for usage.\n",
  );
  const option = await stderrOf([...TASK, "run", "--formt", "text", "hi"]);
  assert.equal(option.code, 2);
  assert.equal(
    option.stderr,
    "magi-tools: Unknown option '--formt' (did you mean '--format'?)\n" +
      "Run 'deno task start run --help' for usage.\n",
  );
  const help = await stderrOf([...TASK, "run", "--help"]);
  assert.equal(help.code, 0, help.stderr);
});

Deno.test("usage errors through plain `deno run`: magi-tools in the hint; nothing near, no guess", async () => {
  const option = await stderrOf([...PLAIN, "batch", "in.jsonl", "--out", "o", "--jbos", "2"]);
  assert.equal(option.code, 2);
  assert.equal(
    option.stderr,
    "magi-tools: Unknown option '--jbos' (did you mean '--jobs'?)\n" +
      "Run 'magi-tools batch --help' for usage.\n",
  );
  const far = await stderrOf([...PLAIN, "frobnicate"]);
  assert.equal(far.code, 2);
  assert.equal(
    far.stderr,
    "magi-tools: Unknown command: frobnicate\nRun 'magi-tools --help' for usage.\n",
  );
  const version = await stderrOf([...PLAIN, "--vresion"]);
  assert.match(
    version.stderr,
    /^magi-tools: Unknown option '--vresion' \(did you mean '--version'\?\)\n/,
  );
});

Deno.test("usage errors of trust: its own help in the hint, and a mistyped trust is guessed", async () => {
  const option = await stderrOf([...PLAIN, "trust", "--lst"]);
  assert.equal(option.code, 2);
  assert.equal(
    option.stderr,
    "magi-tools: Unknown option '--lst' (did you mean '--list'?)\n" +
      "Run 'magi-tools trust --help' for usage.\n",
  );
  const command = await stderrOf([...PLAIN, "turst"]);
  assert.equal(command.code, 2);
  assert.equal(
    command.stderr,
    "magi-tools: Unknown command: turst (did you mean 'trust'?)\nRun 'magi-tools --help' for usage.\n",
  );
  const help = await stderrOf([...PLAIN, "trust", "--help"]);
  assert.equal(help.code, 0, help.stderr);
});

Deno.test("closestWord: edits scale with the word, transpositions count once, exact is no guess", () => {
  assert.equal(closestWord("tols", ["tools", "call"]), "tools");
  assert.equal(
    closestWord("--fail-on-tool-eror", ["--fail-on-tool-error", "--format"]),
    "--fail-on-tool-error",
  );
  assert.equal(closestWord("ab", ["run"]), null);
  assert.equal(closestWord("run", ["run"]), null);
  assert.equal(didYouMean("--tool", ["--tools", "--timeout"]), " (did you mean '--tools'?)");
  assert.equal(didYouMean("--zzzzzz", ["--tools"]), "");
});
