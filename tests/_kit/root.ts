/** Where this checkout is (test helper): the one definition of the repository root. */

/** The repository root as a `file:` URL (with a trailing slash). */
export const rootUrl: URL = new URL("../../", import.meta.url);

/** The repository root's path, with a trailing slash: `${root}src/mod.ts`. */
export const root: string = decodeURIComponent(rootUrl.pathname);

/** The repository root's path without the trailing slash: `${rootDir}/src/mod.ts`. */
export const rootDir: string = root.replace(/\/$/, "");
