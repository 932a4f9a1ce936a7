/**
 * The test kit: what tests share to set themselves up, in one place.
 *
 * - {@link root}: where this checkout is.
 * - {@link cli} / {@link spawnCli}: the CLI as a child process, the one runner.
 * - {@link eventually} / {@link fileBecomes}: the one wait for a condition without an event.
 * - {@link FakeTime}: fake time for code that takes a `clock` (`src/async/clock.ts`).
 * - {@link FakeBackend}: the scriptable fake backend, in this process ({@link fakeChild},
 *   over {@link memoryChild}) or as a child process ({@link fakeAgent}).
 * - {@link alive} / {@link processState} / {@link processes}: what runs, from Linux's `/proc`.
 *
 * The rules for timing in tests are in `tests/_timing.md`.
 *
 * @module
 */

export { root, rootDir, rootUrl } from "./root.ts";
export {
  cli,
  type CliOptions,
  type CliResult,
  FULL_CLI,
  ofType,
  one,
  type Rec,
  REFERENCE_AGENT,
  spawnCli,
  type SpawnCliOptions,
} from "./cli.ts";
export { eventually, fileBecomes } from "../_wait.ts";
export { drainMicrotasks, FakeTime } from "../_fake_time.ts";
export {
  FAKE_BACKEND,
  fakeAgent,
  FakeBackend,
  type FakeBackendOptions,
  fakeChild,
  optionsFromEnv,
} from "./fake_backend.ts";
export { type BackendIo, type MemoryChild, memoryChild, NO_SPAWN } from "./memory_child.ts";
export { alive, type ProcessEntry, processes, processState } from "./proc.ts";

import { FakeBackend, type FakeBackendOptions } from "./fake_backend.ts";
import type { BackendIo } from "./memory_child.ts";

/** The serve function of a fresh fake backend (for {@link memoryChild}). */
export function fakeBackend(options: FakeBackendOptions = {}): (io: BackendIo) => Promise<number> {
  return new FakeBackend(options).serve;
}
