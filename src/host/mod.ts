/**
 * The host program itself: its package version (`version.ts`) and how the user ran it
 * (`invocation.ts`, for hints that name a command to type next). "Host" means the program only;
 * tools and calls live in `src/tool/`, `src/toolset/`, `src/call/` and `src/sandbox/`.
 *
 * @module
 */

export { invocation, INVOCATION_ENV } from "./invocation.ts";
export { PACKAGE_VERSION } from "./version.ts";
