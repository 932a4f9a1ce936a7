/**
 * The only way an OpenAPI document's `$ref`s reach other documents: the
 * resolver and parser plugins `document.ts` hands the `$ref` parser in place
 * of its own file, HTTP, text and binary ones. A project config that names a
 * document needs no approval, and what a `$ref` reaches is inlined into a
 * tool's input schema (sent to the model and the backend), so:
 *
 * - a **local** document reaches only files inside its own directory, by real
 *   path: the path as written must lie under the document's directory, and so
 *   must the path with every symlink resolved (a link inside pointing out is
 *   outside); it reaches no URL at all;
 * - a **remote** document (`https://…`) reaches only URLs of its own origin
 *   (scheme, host and port), following a redirect only within that origin; it
 *   reaches no local file;
 * - anything else (`data:`, `ftp:`, …) is refused;
 * - what is read must parse as a JSON or YAML object or array (no text or
 *   binary documents: a `.env` or key file never becomes a string in a schema).
 *
 * A refusal is a {@link RefRefused} naming the `$ref` as written and why; it is
 * decided before anything is read or fetched.
 *
 * @module
 */

import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { CORE_SCHEMA, loadYaml, type RefParserOptions } from "./_deps.ts";

/** The `$ref` parser's view of one file to read (the fields used here). */
interface RefFile {
  readonly url: string;
  readonly hash?: string;
  readonly reference?: string;
  readonly data?: unknown;
}

/** A `$ref` the document may not follow: the message names the `$ref` and why. */
export class RefRefused extends Error {
  /** `ref` as written (with its fragment); `why` the rule it breaks. */
  constructor(ref: string, why: string) {
    super(`$ref ${JSON.stringify(ref)} refused: ${why}`);
    this.name = "RefRefused";
  }
}

/** Limits of {@link containedRefOptions}. */
export interface RefReaderLimits {
  /** Largest document read, bytes. */
  readonly maxBytes: number;
  /** How long one fetch may take, ms. */
  readonly timeoutMs: number;
}

const MAX_REDIRECTS = 5;

/**
 * The `resolve` and `parse` options of `$RefParser` for the document at
 * `location` (an absolute path or an http(s) URL): one resolver that applies
 * the rules of the module doc, one parser for JSON and YAML.
 */
export function containedRefOptions(
  location: string,
  limits: RefReaderLimits,
): Pick<RefParserOptions, "resolve" | "parse"> {
  const remote = /^https?:\/\//i.test(location);
  const reader = remote
    ? sameOriginReader(new URL(location).origin, limits)
    : sameDirectoryReader(dirname(resolve(location)), limits);
  // The same options may resolve twice (count, then dereference): each file is read once.
  const reads = new Map<string, Promise<Uint8Array>>();
  const read = (file: RefFile): Promise<Uint8Array> => {
    let bytes = reads.get(file.url);
    if (bytes === undefined) reads.set(file.url, bytes = reader(file));
    return bytes;
  };
  return {
    resolve: {
      file: false,
      http: false,
      contained: { order: 1, canRead: true, read },
    },
    parse: {
      json: false,
      yaml: false,
      text: false,
      binary: false,
      document: { order: 1, allowEmpty: true, canParse: true, parse: parseDocument },
    },
  };
}

/** The `$ref` as written, fragment included, for messages. */
function written(file: RefFile): string {
  return (file.reference ?? file.url) + (file.hash ?? "");
}

function sameDirectoryReader(dir: string, limits: RefReaderLimits) {
  let realDir: Promise<string> | undefined;
  return async (file: RefFile): Promise<Uint8Array> => {
    const path = localPath(file.url);
    if (path === null) {
      throw new RefRefused(
        written(file),
        `a local document's $refs reach only files in its own directory ${dir}, not URLs`,
      );
    }
    if (!inside(dir, path)) {
      throw new RefRefused(
        written(file),
        `it resolves to ${path}, outside the document's directory ${dir}`,
      );
    }
    realDir ??= realpath(dir).catch(() => dir);
    const root = await realDir;
    let real: string;
    try {
      real = await realpath(path);
    } catch (error) {
      throw new Error(`cannot read ${path}: ${(error as Error).message}`);
    }
    if (!inside(root, real)) {
      throw new RefRefused(
        written(file),
        `${path} is a symlink to ${real}, outside the document's directory ${root}`,
      );
    }
    return await readRegularFile(real, path, limits.maxBytes);
  };
}

/**
 * The bytes of the regular file at `real` (`path` as named, for messages). It is opened without
 * blocking and checked through the open handle: anything else (a FIFO, a device, a directory) or
 * a file larger than `maxBytes` is refused before a byte is read, so a read cannot block or run
 * out of memory.
 */
export async function readRegularFile(
  real: string,
  path: string,
  maxBytes: number,
): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${path} is not a regular file`);
    if (info.size > maxBytes) throw new Error(`${path} is larger than ${maxBytes} bytes`);
    const bytes = await handle.readFile().catch((error: Error) => {
      throw new Error(`cannot read ${path}: ${error.message}`);
    });
    if (bytes.length > maxBytes) throw new Error(`${path} is larger than ${maxBytes} bytes`);
    return bytes;
  } finally {
    await handle.close();
  }
}

function sameOriginReader(origin: string, limits: RefReaderLimits) {
  return async (file: RefFile): Promise<Uint8Array> => {
    let url = URL.parse(file.url);
    const refuse = (why: string) => new RefRefused(written(file), why);
    const rule = `a remote document's $refs reach only its own origin ${origin}`;
    if (url === null || !/^https?:$/.test(url.protocol)) {
      throw refuse(`${rule}, not local files or other schemes`);
    }
    if (url.origin !== origin) throw refuse(`${rule}, not ${url.origin}`);
    const signal = AbortSignal.timeout(limits.timeoutMs);
    for (let hop = 0;; hop++) {
      url.hash = "";
      const response = await fetch(url, {
        signal,
        redirect: "manual",
        headers: { accept: "application/json, application/yaml, text/yaml, */*" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = URL.parse(location, url);
        if (next === null || next.origin !== origin) {
          throw refuse(`${url.href} redirects to ${next?.origin ?? location}: ${rule}`);
        }
        if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
        url = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`${url.href}: HTTP ${response.status}`);
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length > limits.maxBytes) {
        throw new Error(`${url.href} is larger than ${limits.maxBytes} bytes`);
      }
      return bytes;
    }
  };
}

/** The file path a `$ref` URL names (a path or a `file:` URL), or null for any other scheme. */
function localPath(url: string): string | null {
  if (/^file:/i.test(url)) {
    try {
      return fileURLToPath(url);
    } catch {
      return null;
    }
  }
  if (/^[a-z][a-z0-9+.-]+:/i.test(url)) return null;
  // A path as the parser resolved it: percent-encoded like a URL's path.
  const path = url.replace(/[?#].*$/, "");
  try {
    return fileURLToPath(new URL(`file://${path.startsWith("/") ? "" : "/"}${path}`));
  } catch {
    return decodeURIComponent(path);
  }
}

/** Whether `path` is `dir` or below it (both absolute, normalised). */
function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** A referenced document: JSON or YAML (core schema), an object or array. */
function parseDocument(file: RefFile): unknown {
  const data = file.data;
  const text = (data instanceof Uint8Array ? new TextDecoder().decode(data) : String(data))
    .replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    // As the document itself is read (`document.ts`).
    value = /^\s*\{/.test(text) ? JSON.parse(text) : loadYaml(text, { schema: CORE_SCHEMA });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n", 1)[0]! : String(error);
    throw new Error(`${file.url} does not parse as JSON or YAML: ${reason}`);
  }
  if (typeof value !== "object" || value === null) {
    throw new Error(`${file.url} is not a JSON or YAML object or array`);
  }
  return value;
}
