/**
 * `initialize` params and result: types, their schemas typed as them.
 *
 * @module
 */

import { z } from "zod";
import {
  BASE_REQUIRED_CAPABILITIES,
  CLIENT_TOOLS_REQUIRED_CAPABILITIES,
  LIMITS,
} from "../limits.ts";
import { BASE_CAPABILITIES, EXTENSION_CAPABILITIES } from "./capabilities.ts";
import {
  CLIENT_TOOLS_CAPABILITY,
  type ClientToolDefinitions,
  ClientToolDefinitionsSchema,
  type ClientToolsDescriptor,
  ClientToolsDescriptorSchema,
} from "./client_tools.ts";
import { CapabilityNameSchema } from "./common.ts";
import { type Status, StatusSchema } from "./status.ts";
import { type ToolCardsDescriptor, ToolCardsDescriptorSchema } from "./tool_cards.ts";

/**
 * `initialize` params: `required_capabilities` (at most 16 names; at most 18
 * when it names `client.tools`) and `client_tools`, present exactly when
 * `client.tools` is required. Unknown capability names are well-formed here:
 * rejecting them is the backend's `unsupported_capability`, not `invalid_params`.
 */
export type InitializeParams = {
  required_capabilities: string[];
  client_tools?: ClientToolDefinitions;
};

/** The initialization result's `limits`: exactly every name of `LIMITS`, each an integer. */
export type LimitsObject = { -readonly [K in keyof typeof LIMITS]: number };

/** `descriptors`, keyed by negotiated extension name. */
export type Descriptors = {
  "client.tools"?: ClientToolsDescriptor;
  "tool.cards"?: ToolCardsDescriptor;
};

/**
 * `initialize` result: exactly `capabilities`, `limits`, `status`, plus
 * `descriptors` only when an extension was negotiated. `capabilities` is the
 * sixteen base names in order, then each negotiated extension once; the
 * descriptor keys are exactly the negotiated extensions.
 */
export type InitializeResult = {
  capabilities: string[];
  limits: LimitsObject;
  status: Status;
  descriptors?: Descriptors;
};

function build() {
  const InitializeParamsSchema = z.strictObject({
    required_capabilities: z.array(CapabilityNameSchema).max(CLIENT_TOOLS_REQUIRED_CAPABILITIES),
    client_tools: z.exactOptional(ClientToolDefinitionsSchema),
  }).check((ctx) => {
    const { required_capabilities: required, client_tools: tools } = ctx.value;
    const negotiated = required.includes(CLIENT_TOOLS_CAPABILITY);
    if (negotiated !== (tools !== undefined)) {
      ctx.issues.push({
        code: "custom",
        message: negotiated
          ? 'client_tools is required when "client.tools" is required'
          : 'client_tools is allowed only when "client.tools" is required',
        input: ctx.value,
        path: ["client_tools"],
      });
    }
    const max = negotiated ? CLIENT_TOOLS_REQUIRED_CAPABILITIES : BASE_REQUIRED_CAPABILITIES;
    if (required.length > max) {
      ctx.issues.push({
        code: "custom",
        message: `At most ${max} required capabilities: got ${required.length}`,
        input: ctx.value,
        path: ["required_capabilities"],
      });
    }
  });
  const limitShape = Object.fromEntries(
    Object.keys(LIMITS).map((name) => [name, z.int().min(0)]),
  ) as { [K in keyof typeof LIMITS]: z.ZodInt };
  const LimitsSchema = z.strictObject(limitShape);
  const DescriptorsSchema = z.strictObject({
    "client.tools": z.exactOptional(ClientToolsDescriptorSchema),
    "tool.cards": z.exactOptional(ToolCardsDescriptorSchema),
  });
  const InitializeResultSchema = z.strictObject({
    capabilities: z.array(CapabilityNameSchema),
    limits: LimitsSchema,
    status: StatusSchema,
    descriptors: z.exactOptional(DescriptorsSchema),
  }).check((ctx) => {
    const { capabilities, descriptors } = ctx.value;
    const fail = (message: string, path: PropertyKey[]) =>
      ctx.issues.push({ code: "custom", message, input: ctx.value, path });
    const base: readonly string[] = BASE_CAPABILITIES;
    const extensions: readonly string[] = EXTENSION_CAPABILITIES;
    const head = capabilities.slice(0, base.length);
    if (head.length !== base.length || head.some((name, i) => name !== base[i])) {
      fail("Capabilities must start with the sixteen base names in order", ["capabilities"]);
      return;
    }
    const tail = capabilities.slice(base.length);
    if (tail.some((name) => !extensions.includes(name)) || new Set(tail).size !== tail.length) {
      fail("Capabilities after the base names must be distinct extensions", ["capabilities"]);
      return;
    }
    const keys = descriptors === undefined ? [] : Object.keys(descriptors);
    if (tail.length > 0 && descriptors === undefined) {
      fail("descriptors is required when an extension was negotiated", ["descriptors"]);
    } else if (tail.length === 0 && descriptors !== undefined) {
      fail("descriptors is allowed only when an extension was negotiated", ["descriptors"]);
    } else if (keys.length !== tail.length || keys.some((key) => !tail.includes(key))) {
      fail("descriptors keys must be exactly the negotiated extensions", ["descriptors"]);
    }
  });
  return { InitializeParamsSchema, LimitsSchema, DescriptorsSchema, InitializeResultSchema };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type InitializeSchemas = ReturnType<typeof build>;
const built: InitializeSchemas = build();

/** `initialize` params. */
export const InitializeParamsSchema: z.ZodType<InitializeParams> = built.InitializeParamsSchema;
/** The initialization result's `limits`. */
export const LimitsSchema: z.ZodType<LimitsObject> = built.LimitsSchema;
/** `descriptors`. */
export const DescriptorsSchema: z.ZodType<Descriptors> = built.DescriptorsSchema;
/** `initialize` result. */
export const InitializeResultSchema: z.ZodType<InitializeResult> = built.InitializeResultSchema;
