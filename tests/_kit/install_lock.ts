/**
 * One installer at a time for a directory under `.tools/`: `deno test --parallel` runs test
 * modules at the same time, each in its own isolate of one process, so a module-level "install
 * once" promise no longer means once. The lock is a file lock (`flock`), which two isolates of
 * one process hold as two open files, so the second waits and then finds the install done.
 *
 * @module
 */

/**
 * Run `install` holding an exclusive lock on the file `<dir>.lock` (created; `dir` itself is
 * created too). Closing the file releases the lock, also when `install` throws.
 */
export async function withInstallLock<T>(dir: string, install: () => Promise<T>): Promise<T> {
  const path = dir.replace(/\/+$/, "");
  await Deno.mkdir(path, { recursive: true });
  const file = await Deno.open(`${path}.lock`, { create: true, write: true });
  try {
    await file.lock(true);
    return await install();
  } finally {
    file.close();
  }
}
