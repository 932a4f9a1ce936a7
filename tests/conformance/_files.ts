/**
 * File-system observations of a backend's storage, used only to check "no file yet" rules.
 *
 * @module
 */

/** Paths under `root` whose file name contains `needle` (empty when root is missing). */
export async function filesNamed(root: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string, depth: number): Promise<void> {
    if (depth > 8) return;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.name.includes(needle)) found.push(path);
      if (entry.isDirectory) await walk(path, depth + 1);
    }
  }
  await walk(root, 0);
  return found;
}
