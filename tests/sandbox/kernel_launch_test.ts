import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import {
  launchArgs,
  moduleFilesOf,
  probeKernelSandbox,
  runnerFilesOf,
} from "../../src/sandbox/kernel.ts";
import { ToolProcess } from "../../src/sandbox/tool_process.ts";
import { LogBuffer } from "../../src/sandbox/log_buffer.ts";
import { NO_INHERIT_FLAG } from "../../src/sandbox/permissions.ts";
import { FIXTURES } from "./_setup.ts";

const kernel = await probeKernelSandbox();
const PROBE = `${FIXTURES}probe.ts`;
/** The probe's and the runner's module graphs: its npm packages are readable only so. */
const GRAPH_OPTIONS = { cwd: Deno.cwd(), denoPath: Deno.execPath() };
const MODULE_FILES = kernel.available
  ? [...await moduleFilesOf(PROBE, GRAPH_OPTIONS), ...await runnerFilesOf(GRAPH_OPTIONS)]
  : [PROBE];
const CALL = {
  args: { action: "pid" },
  callId: "c",
  sessionId: "s",
  runId: "r",
  deadline: Date.now() + 60_000,
  cwd: Deno.cwd(),
  resultBytes: 1_048_576,
};

function processFor(launch: (args: readonly string[]) => string[]): ToolProcess {
  const url = pathToFileURL(PROBE).href;
  return new ToolProcess({
    name: "probe",
    url,
    denoPath: Deno.execPath(),
    flags: ["--no-prompt", NO_INHERIT_FLAG, `--preload=${url}`],
    cwd: Deno.cwd(),
    launch,
  });
}

/**
 * The launcher's arguments for the probe tool; `edit` may change the policy (the argument after
 * "exec", at `at`) and the launch (the program follows the policy).
 */
function editedLaunch(
  args: readonly string[],
  edit: (policy: { exec: string[]; minAbi: number }, launch: string[], at: number) => void,
): string[] {
  const launch = launchArgs({
    permissions: undefined,
    cwd: Deno.cwd(),
    denoPath: Deno.execPath(),
    moduleFiles: MODULE_FILES,
    args,
  });
  const at = launch.indexOf("exec") + 1;
  const policy = JSON.parse(launch[at]!);
  edit(policy, launch, at);
  launch[at] = JSON.stringify(policy);
  return launch;
}

Deno.test({
  name: "a tool process under the kernel layer serves calls; its launcher exec'd in place",
  ignore: !kernel.available,
  fn: async () => {
    const proc = processFor((args) => editedLaunch(args, () => {}));
    try {
      const outcome = await proc.call(CALL, new LogBuffer());
      // The same process ID: the launcher replaced itself with the tool's deno (execve).
      assert.deepEqual(outcome, { kind: "value", text: String(proc.pid) });
    } finally {
      await proc.close();
    }
  },
});

Deno.test({
  name: "a launch the kernel cannot honour is tool_crashed with the reason; the tool never runs",
  ignore: !kernel.available,
  fn: async () => {
    // Demand an ABI no kernel has.
    const proc = processFor((args) => editedLaunch(args, (policy) => policy.minAbi = 999));
    try {
      const outcome = await proc.call(CALL, new LogBuffer());
      assert.equal(outcome.kind, "crashed");
      assert.match(
        (outcome as { message: string }).message,
        /^the kernel sandbox could not be applied: Landlock ABI \d+ is older than 999$/,
      );
    } finally {
      await proc.close();
    }
  },
});

Deno.test({
  name: "the launcher always grants the program it executes, even when the policy omits it",
  ignore: !kernel.available,
  fn: async () => {
    const proc = processFor((args) =>
      editedLaunch(args, (policy) => {
        policy.exec = policy.exec.filter((path) => path !== Deno.execPath());
      })
    );
    try {
      const outcome = await proc.call(CALL, new LogBuffer());
      assert.deepEqual(outcome, { kind: "value", text: String(proc.pid) });
    } finally {
      await proc.close();
    }
  },
});

Deno.test({
  name: "a program the launcher cannot open is tool_crashed naming it, not a bare execve error",
  ignore: !kernel.available,
  fn: async () => {
    const missing = `${await Deno.makeTempDir()}/no-such-deno`;
    const proc = processFor((args) =>
      editedLaunch(args, (_policy, launch, at) => {
        launch[at + 1] = missing;
      })
    );
    try {
      const outcome = await proc.call(CALL, new LogBuffer());
      assert.equal(outcome.kind, "crashed");
      assert.equal(
        (outcome as { message: string }).message,
        `the kernel sandbox could not be applied: ${missing} cannot be opened: No such file or directory`,
      );
    } finally {
      await proc.close();
      await Deno.remove(missing.slice(0, missing.lastIndexOf("/")));
    }
  },
});
