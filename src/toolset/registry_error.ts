/**
 * {@link RegistryError}: the tool set cannot be registered, or the backend
 * registered something else (`registry.ts` and the checks beside it throw it).
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";

/**
 * The tool set cannot be registered, or the backend registered something else: a
 * `HostError` with the code `registry`, under its own name for library users.
 */
export class RegistryError extends HostError<"registry"> {
  /** Message as given. */
  constructor(message: string, options?: ErrorOptions) {
    super("registry", message, options);
    this.name = "RegistryError";
  }
}
