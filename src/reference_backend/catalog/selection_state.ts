/**
 * The child's current provider/model/effort selection and its revision.
 *
 * Every successful attachment or deliberate mutation rotates the revision; a catalog
 * observation rotates it only when the effort semantics of the current selection changed.
 * The effective effort is resolved by the backend: the requested level when support is
 * `supported` and it is permitted (else `default`), null when unsupported or unknown.
 *
 * @module
 */

import type { Effort, EffortSupport } from "../../protocol/schemas/common.ts";
import type { CatalogScan } from "./catalog_scan.ts";
import { randomTag } from "../paging.ts";
import { safeName, SCRIPTED_PROVIDER } from "./providers.ts";

/** Effort metadata of one provider/model. */
export interface EffortInfo {
  support: EffortSupport;
  permitted: Effort[];
}

/** The selection's fields. */
export interface SelectionFields extends EffortInfo {
  provider: string;
  model: string;
  requested: Effort;
}

/** The status `selection` object. */
export interface SelectionObject {
  revision: string;
  provider: string | null;
  model: string | null;
  requested_effort: Effort;
  effective_effort: Effort | null;
  effort_support: EffortSupport;
  permitted_efforts: Effort[];
}

/** Effort metadata of `provider`/`model` in `scan`, or the built-in profile. */
export function effortInfo(scan: CatalogScan | null, provider: string, model: string): EffortInfo {
  const choice = scan?.choices.find((c) => c.provider === provider && c.model === model);
  if (choice !== undefined) {
    return { support: choice.effort_support, permitted: [...choice.permitted_efforts] };
  }
  // The scripted provider's built-in profile has no effort control.
  if (provider === SCRIPTED_PROVIDER) return { support: "unsupported", permitted: ["default"] };
  return { support: "unknown", permitted: ["default"] };
}

/** The current selection of one child. */
export class SelectionState {
  #fields: SelectionFields;
  #generation = 0;
  #revision: string;

  /** Start at `fields`. */
  constructor(fields: SelectionFields) {
    this.#fields = { ...fields };
    this.#revision = this.#next();
  }

  /** Current revision. */
  get revision(): string {
    return this.#revision;
  }

  /** Current fields. */
  get fields(): Readonly<SelectionFields> {
    return this.#fields;
  }

  /** Replace the selection and rotate the revision. */
  replace(fields: SelectionFields): void {
    this.#fields = { ...fields, permitted: [...fields.permitted] };
    this.#revision = this.#next();
  }

  /** Reconcile effort metadata from a catalog observation; rotates only on change. */
  observe(scan: CatalogScan): void {
    const { provider, model } = this.#fields;
    const info = effortInfo(scan, provider, model);
    const same = info.support === this.#fields.support &&
      info.permitted.join() === this.#fields.permitted.join();
    if (same) return;
    this.replace({ ...this.#fields, ...info });
  }

  /** The status object. */
  toObject(): SelectionObject {
    const f = this.#fields;
    return {
      revision: this.#revision,
      provider: safeName(f.provider),
      model: safeName(f.model),
      requested_effort: f.requested,
      effective_effort: effectiveEffort(f),
      effort_support: f.support,
      permitted_efforts: [...f.permitted],
    };
  }

  #next(): string {
    return `sel-${++this.#generation}-${randomTag()}`;
  }
}

/** The backend-resolved effective effort of `fields`. */
export function effectiveEffort(fields: SelectionFields): Effort | null {
  if (fields.support !== "supported") return null;
  return fields.permitted.includes(fields.requested) ? fields.requested : "default";
}
