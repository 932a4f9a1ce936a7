import type { InitArgs } from "./args_loop.ts";
export function initCommand(_args: InitArgs): Promise<number> {
  return Promise.resolve(2);
}
