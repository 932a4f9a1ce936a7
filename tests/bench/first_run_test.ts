import assert from "node:assert/strict";
import { measureFirstRun, parseFirstRunOutput } from "../../bench/first_run.ts";
import { eventually } from "../_kit/mod.ts";
import { alive } from "../_kit/proc.ts";

Deno.test("parseFirstRunOutput() reads the last non-empty line", () => {
  assert.deepEqual(
    parseFirstRunOutput(
      'Download npm:zod\n{"installed":["zod"],"graph":["zod","ajv"],"seconds":4.5}\n\n',
    ),
    { installed: ["zod"], graph: ["zod", "ajv"], seconds: 4.5 },
  );
});

Deno.test("parseFirstRunOutput() names what is wrong", () => {
  const cases: [string, RegExp][] = [
    ["", /^TypeError: No output line$/],
    ["done\n", /^TypeError: Last line is not JSON: done$/],
    ["[1]", /^TypeError: Last line is not a JSON object$/],
    ['{"installed":["a"],"graph":["a"]}', /"seconds" is not a non-negative number/],
    ['{"installed":["a"],"graph":["a"],"seconds":-1}', /"seconds" is not a non-negative number/],
    ['{"installed":"a","graph":["a"],"seconds":1}', /"installed" is not an array of package names/],
    ['{"installed":["a"],"graph":[1],"seconds":1}', /"graph" is not an array of package names/],
  ];
  for (const [text, expected] of cases) {
    assert.throws(() => parseFirstRunOutput(text), expected, JSON.stringify(text));
  }
});

async function repoWith(script: string | null): Promise<string> {
  const repo = await Deno.makeTempDir({ prefix: "magi-bench-first-run-" });
  if (script !== null) {
    await Deno.mkdir(`${repo}/scripts`);
    await Deno.writeTextFile(`${repo}/scripts/first_run.ts`, script);
  }
  return repo;
}

Deno.test("measureFirstRun() reports a missing script as not measured", async () => {
  const repo = await repoWith(null);
  try {
    assert.deepEqual(await measureFirstRun({ repo }), {
      status: "not measured",
      reason: "scripts/first_run.ts missing",
    });
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("measureFirstRun() runs the script in the repository and reads its JSON line", async () => {
  const repo = await repoWith(
    `console.log("progress");\n` +
      `console.log(JSON.stringify({ installed: [Deno.cwd()], graph: ["b"], seconds: 2 }));\n`,
  );
  try {
    assert.deepEqual(await measureFirstRun({ repo }), {
      status: "measured",
      installed: [await Deno.realPath(repo)],
      graph: ["b"],
      seconds: 2,
    });
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("measureFirstRun() reports a failed run or a malformed line, never a number", async () => {
  const failed = await repoWith(
    `console.log('{"installed":[],"graph":[],"seconds":1}');\nDeno.exit(4);\n`,
  );
  const malformed = await repoWith(`console.log("no json here");\n`);
  try {
    assert.deepEqual(await measureFirstRun({ repo: failed }), {
      status: "not measured",
      reason: "scripts/first_run.ts failed: exit 4",
    });
    assert.deepEqual(await measureFirstRun({ repo: malformed }), {
      status: "not measured",
      reason: "scripts/first_run.ts printed no valid result: Last line is not JSON: no json here",
    });
  } finally {
    await Deno.remove(failed, { recursive: true });
    await Deno.remove(malformed, { recursive: true });
  }
});

Deno.test("measureFirstRun() gives up after the timeout and ends the script's children", async () => {
  const repo = await repoWith(
    `const child = new Deno.Command("sleep", { args: ["60"] }).spawn();\n` +
      `Deno.writeTextFileSync("child.pid", String(child.pid));\n` +
      `await child.status;\n`,
  );
  try {
    const started = performance.now();
    const result = await measureFirstRun({ repo, timeoutMs: 8_000 });
    assert.deepEqual(result, {
      status: "not measured",
      reason: "scripts/first_run.ts timed out after 8 s",
    });
    assert.ok(performance.now() - started < 30_000);
    const pid = Number(await Deno.readTextFile(`${repo}/child.pid`));
    // The grandchild was in the script's process group: it is gone (or a zombie being reaped).
    assert.ok(await eventually(() => !alive(pid), 5_000), `sleep ${pid} still runs`);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
