/**
 * Every bound of `magi-code.local-agent` version 1, as a named constant.
 *
 * Names follow `shared/spec/wire-contract.md` (the `limits` object of the
 * initialization result) in SCREAMING_SNAKE_CASE; {@link LIMITS} is that object.
 *
 * @module
 */

/** Protocol name carried by every frame. */
export const PROTOCOL = "magi-code.local-agent";
/** Protocol version carried by every frame. */
export const VERSION = 1;

/** Input frame, bytes excluding LF. */
export const INPUT_FRAME_BYTES = 65_536;
/** Output frame, bytes including LF. */
export const OUTPUT_FRAME_BYTES = 65_536;
/** Maximum nesting of JSON containers in one frame. */
export const JSON_DEPTH = 32;
/** Request IDs, method and capability names: 1 to this many ASCII bytes. */
export const ID_BYTES = 64;
/** Prompt, UTF-8 bytes. */
export const PROMPT_BYTES = 16_384;
/** History content chunk, UTF-8 bytes (reduced for JSON escaping). */
export const HISTORY_CHUNK_BYTES = 16_384;
/** Live event content chunk, UTF-8 bytes. */
export const EVENT_CHUNK_BYTES = 4_000;
/** Serialized history page result bytes. */
export const HISTORY_PAGE_BYTES = 32_768;
/** History page entries. */
export const HISTORY_PAGE_ENTRIES = 100;
/** Serialized history snapshot bytes. */
export const HISTORY_SNAPSHOT_BYTES = 8_388_608;
/** History snapshot parts. */
export const HISTORY_SNAPSHOT_PARTS = 10_000;
/** Stored history read, original JSONL bytes. */
export const STORED_HISTORY_BYTES = 67_108_864;
/** Stored history read, lines. */
export const STORED_HISTORY_LINES = 100_000;
/** Pending output frames. */
export const PENDING_OUTPUT_FRAMES = 32;
/** Worker event channel capacity. */
export const WORKER_EVENTS = 32;
/** How long a critical worker event may wait for the channel. */
export const CRITICAL_EVENT_WAIT_MS = 2_000;
/** Assistant content per run, bytes. */
export const RUN_CONTENT_BYTES = 8_388_608;
/** Assistant content per run, segments. */
export const RUN_CONTENT_SEGMENTS = 512;
/** Activity identities per run. */
export const RUN_ACTIVITIES = 4_096;
/** Internal activity ID bytes. */
export const ACTIVITY_ID_BYTES = 1_024;
/** Activity/approval/diagnostic summary, UTF-8 bytes after redaction. */
export const SUMMARY_BYTES = 1_024;
/** Approval expiry; default deny. */
export const APPROVAL_EXPIRY_MS = 60_000;
/** Request IDs retained per child. */
export const REQUEST_IDS = 4_096;
/** Output deadline from enqueue, not reset by partial progress. */
export const OUTPUT_DEADLINE_MS = 2_000;
/** Cleanup wait after output draining stops. */
export const CLEANUP_WAIT_MS = 2_000;
/** One `session_preferences` append, bytes. */
export const SELECTION_APPEND_BYTES = 4_096;
/** One input read batch, bytes. */
export const READ_BATCH_BYTES = 4_096;

/** Discovery page, serialized bytes. */
export const DISCOVERY_PAGE_BYTES = 32_768;
/** Discovery page entries. */
export const DISCOVERY_PAGE_ENTRIES = 100;
/** Directory entries per inventory pass. */
export const DISCOVERY_DIRECTORY_ENTRIES = 4_096;
/** Sessions per discovery snapshot. */
export const DISCOVERY_SESSIONS = 256;
/** Bytes read per session file. */
export const DISCOVERY_SESSION_BYTES = 8_388_608;
/** Lines read per session file. */
export const DISCOVERY_SESSION_LINES = 10_000;
/** Bytes read per scan. */
export const DISCOVERY_SCAN_BYTES = 67_108_864;
/** Lines read per scan. */
export const DISCOVERY_SCAN_LINES = 100_000;
/** Cooperative scan deadline. */
export const DISCOVERY_SCAN_MS = 2_000;
/** Title input bytes. */
export const DISCOVERY_TITLE_BYTES = 256;

/** Catalog page, serialized bytes. */
export const CATALOG_PAGE_BYTES = 32_768;
/** Catalog page entries. */
export const CATALOG_PAGE_ENTRIES = 100;
/** Providers, including three built-ins. */
export const CATALOG_PROVIDERS = 32;
/** Models scanned before exclusions. */
export const CATALOG_MODELS = 2_048;
/** One catalog cache file, bytes. */
export const CATALOG_FILE_BYTES = 1_048_576;
/** Cache bytes per scan. */
export const CATALOG_SCAN_BYTES = 8_388_608;
/** Serialized choices per snapshot. */
export const CATALOG_SNAPSHOT_BYTES = 1_048_576;
/** Catalog strings, bytes. */
export const CATALOG_STRING_BYTES = 256;
/** Cooperative deadline per catalog scan. */
export const CATALOG_SCAN_MS = 2_000;

/** The `limits` object of the initialization result, names as in the wire contract. */
export const LIMITS: {
  readonly input_frame_bytes: 65536;
  readonly output_frame_bytes: 65536;
  readonly json_depth: 32;
  readonly id_bytes: 64;
  readonly prompt_bytes: 16384;
  readonly history_chunk_bytes: 16384;
  readonly event_chunk_bytes: 4000;
  readonly history_page_bytes: 32768;
  readonly history_page_entries: 100;
  readonly history_snapshot_bytes: 8388608;
  readonly history_snapshot_parts: 10000;
  readonly stored_history_bytes: 67108864;
  readonly stored_history_lines: 100000;
  readonly pending_output_frames: 32;
  readonly worker_events: 32;
  readonly critical_event_wait_ms: 2000;
  readonly run_content_bytes: 8388608;
  readonly run_content_segments: 512;
  readonly run_activities: 4096;
  readonly activity_id_bytes: 1024;
  readonly summary_bytes: 1024;
  readonly approval_expiry_ms: 60000;
  readonly request_ids: 4096;
  readonly output_deadline_ms: 2000;
  readonly cleanup_wait_ms: 2000;
  readonly selection_append_bytes: 4096;
  readonly discovery_page_bytes: 32768;
  readonly discovery_page_entries: 100;
  readonly discovery_directory_entries: 4096;
  readonly discovery_sessions: 256;
  readonly discovery_session_bytes: 8388608;
  readonly discovery_session_lines: 10000;
  readonly discovery_scan_bytes: 67108864;
  readonly discovery_scan_lines: 100000;
  readonly discovery_scan_ms: 2000;
  readonly discovery_title_bytes: 256;
  readonly catalog_page_bytes: 32768;
  readonly catalog_page_entries: 100;
  readonly catalog_providers: 32;
  readonly catalog_models: 2048;
  readonly catalog_file_bytes: 1048576;
  readonly catalog_scan_bytes: 8388608;
  readonly catalog_snapshot_bytes: 1048576;
  readonly catalog_string_bytes: 256;
  readonly catalog_scan_ms: 2000;
} = Object.freeze(
  {
    input_frame_bytes: INPUT_FRAME_BYTES,
    output_frame_bytes: OUTPUT_FRAME_BYTES,
    json_depth: JSON_DEPTH,
    id_bytes: ID_BYTES,
    prompt_bytes: PROMPT_BYTES,
    history_chunk_bytes: HISTORY_CHUNK_BYTES,
    event_chunk_bytes: EVENT_CHUNK_BYTES,
    history_page_bytes: HISTORY_PAGE_BYTES,
    history_page_entries: HISTORY_PAGE_ENTRIES,
    history_snapshot_bytes: HISTORY_SNAPSHOT_BYTES,
    history_snapshot_parts: HISTORY_SNAPSHOT_PARTS,
    stored_history_bytes: STORED_HISTORY_BYTES,
    stored_history_lines: STORED_HISTORY_LINES,
    pending_output_frames: PENDING_OUTPUT_FRAMES,
    worker_events: WORKER_EVENTS,
    critical_event_wait_ms: CRITICAL_EVENT_WAIT_MS,
    run_content_bytes: RUN_CONTENT_BYTES,
    run_content_segments: RUN_CONTENT_SEGMENTS,
    run_activities: RUN_ACTIVITIES,
    activity_id_bytes: ACTIVITY_ID_BYTES,
    summary_bytes: SUMMARY_BYTES,
    approval_expiry_ms: APPROVAL_EXPIRY_MS,
    request_ids: REQUEST_IDS,
    output_deadline_ms: OUTPUT_DEADLINE_MS,
    cleanup_wait_ms: CLEANUP_WAIT_MS,
    selection_append_bytes: SELECTION_APPEND_BYTES,
    discovery_page_bytes: DISCOVERY_PAGE_BYTES,
    discovery_page_entries: DISCOVERY_PAGE_ENTRIES,
    discovery_directory_entries: DISCOVERY_DIRECTORY_ENTRIES,
    discovery_sessions: DISCOVERY_SESSIONS,
    discovery_session_bytes: DISCOVERY_SESSION_BYTES,
    discovery_session_lines: DISCOVERY_SESSION_LINES,
    discovery_scan_bytes: DISCOVERY_SCAN_BYTES,
    discovery_scan_lines: DISCOVERY_SCAN_LINES,
    discovery_scan_ms: DISCOVERY_SCAN_MS,
    discovery_title_bytes: DISCOVERY_TITLE_BYTES,
    catalog_page_bytes: CATALOG_PAGE_BYTES,
    catalog_page_entries: CATALOG_PAGE_ENTRIES,
    catalog_providers: CATALOG_PROVIDERS,
    catalog_models: CATALOG_MODELS,
    catalog_file_bytes: CATALOG_FILE_BYTES,
    catalog_scan_bytes: CATALOG_SCAN_BYTES,
    catalog_snapshot_bytes: CATALOG_SNAPSHOT_BYTES,
    catalog_string_bytes: CATALOG_STRING_BYTES,
    catalog_scan_ms: CATALOG_SCAN_MS,
  } as const,
);

/** `client.tools` descriptor limits (`shared/spec/client-tools.md` §2). */
export const CLIENT_TOOLS_LIMITS: {
  readonly tools: 32;
  readonly name_bytes: 64;
  readonly description_bytes: 1024;
  readonly schema_bytes: 16384;
  readonly schema_depth: 16;
  readonly arguments_bytes: 32768;
  readonly result_part_bytes: 16384;
  readonly result_bytes: 1048576;
  readonly result_parts: 256;
  readonly call_timeout_ms: 120000;
  readonly max_timeout_ms: 600000;
  readonly concurrent_calls: 4;
  readonly calls_per_run: 256;
  readonly cancel_grace_ms: 2000;
} = Object.freeze(
  {
    tools: 32,
    name_bytes: 64,
    description_bytes: 1_024,
    schema_bytes: 16_384,
    schema_depth: 16,
    arguments_bytes: 32_768,
    result_part_bytes: 16_384,
    result_bytes: 1_048_576,
    result_parts: 256,
    call_timeout_ms: 120_000,
    max_timeout_ms: 600_000,
    concurrent_calls: 4,
    calls_per_run: 256,
    cancel_grace_ms: 2_000,
  } as const,
);

/** Minimum `timeout_ms` of a client tool definition. */
export const CLIENT_TOOL_MIN_TIMEOUT_MS = 1_000;
/** Base `initialize`: at most this many required capabilities. */
export const BASE_REQUIRED_CAPABILITIES = 16;
/** `initialize` with `client.tools`: at most this many required capabilities. */
export const CLIENT_TOOLS_REQUIRED_CAPABILITIES = 18;

/** `tool.cards` descriptor limits (`shared/spec/wire-contract.md`). */
export const TOOL_CARDS_LIMITS: {
  readonly title_bytes: 256;
  readonly fields: 16;
  readonly field_bytes: 1024;
} = Object.freeze(
  {
    title_bytes: 256,
    fields: 16,
    field_bytes: 1_024,
  } as const,
);

/** Client-tools descriptor limits type. */
export type ClientToolsLimits = { readonly [K in keyof typeof CLIENT_TOOLS_LIMITS]: number };
/** Initialization limits type. */
export type Limits = { readonly [K in keyof typeof LIMITS]: number };

/**
 * Least `maxResultBytes` of a tool (`defineTool`, an OpenAPI API or MCP server in the config,
 * `mcp --max-result-bytes`): room for a truncation marker and a useful head.
 */
export const MIN_RESULT_BYTES = 1024;
