/**
 * Constants shared by the kernel layer's launcher and the host, in a module
 * without imports: the launcher is a Deno process started for every tool
 * process, so it loads nothing it does not need (no `node:` modules).
 *
 * @module
 */

/** Exit code of a launch that failed before the tool's process started (`launcher.ts`). */
export const LAUNCH_FAILED = 86;

/** The stderr prefix of a failed launch's reason. */
export const LAUNCH_ERROR_PREFIX = "magi-tools kernel sandbox: ";

/** Variables naming CA certificates Deno reads at startup (`DENO_CERT`, …). */
export const CERTIFICATE_VARIABLES = [
  "DENO_CERT",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
] as const;
