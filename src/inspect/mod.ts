import type { InspectArgs } from "../cli/args_loop.ts";
export function inspectCommand(_args: InspectArgs): Promise<number> {
  return Promise.resolve(2);
}
