/**
 * Capability name lists of version 1.
 *
 * @module
 */

/** The sixteen base capabilities, in the base protocol's listed order. */
export const BASE_CAPABILITIES = [
  "initialize",
  "status",
  "shutdown",
  "session.create",
  "session.open",
  "session.list",
  "session.discover",
  "model.catalog",
  "model.catalog.status",
  "model.refresh",
  "operation.cancel",
  "selection.set",
  "history.page",
  "turn.start",
  "turn.cancel",
  "approval.answer",
] as const;

/** A base capability. */
export type BaseCapability = typeof BASE_CAPABILITIES[number];

/** Advertised operations that work only when named in `required_capabilities`. */
export const OPT_IN_CAPABILITIES = [
  "session.discover",
  "model.catalog.status",
  "model.refresh",
  "operation.cancel",
] as const;

/** An opt-in capability. */
export type OptInCapability = typeof OPT_IN_CAPABILITIES[number];

/** Extensions negotiated at startup, each adding one capability and a descriptor. */
export const EXTENSION_CAPABILITIES = ["tool.cards", "client.tools"] as const;

/** An extension capability. */
export type ExtensionCapability = typeof EXTENSION_CAPABILITIES[number];
