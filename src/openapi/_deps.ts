/**
 * The npm packages this folder uses (reference resolution, YAML, JSON Schema validation), with
 * their `npm:` specifiers stated once (the ranges the npm package declares; `deno.full.lock` and
 * `dev/deno.lock` pin the versions).
 *
 * They are not in the root `deno.json` import map: `deno task` installs every package of that
 * map before any task runs, and the demo does not need them. Only `src/openapi/` imports them,
 * and the CLI loads `src/openapi/` through the non-literal dynamic import of
 * `src/sources/features.ts`, so a command without an `openapi` source never resolves them (the
 * `openapi` config section is parsed by `config.ts`, which needs none of them). The versions
 * here and the entries of `deno.full.lock` and `dev/deno.lock` agree
 * (`tests/scripts/locks_test.ts`; docs/packages.md says how to change them).
 *
 * @module
 */

export {
  default as $RefParser,
  type ParserOptions as RefParserOptions,
} from "npm:@apidevtools/json-schema-ref-parser@^16.0.5";
export { CORE_SCHEMA, load as loadYaml } from "npm:js-yaml@^5.5.0";
export { Ajv2020, type ErrorObject } from "npm:ajv@^8.20.0/dist/2020.js";
