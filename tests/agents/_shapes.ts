/**
 * The four model API shapes the agents speak, as the scripted mock answers them: a tool call or a
 * final text, streamed (SSE) or whole, in the shape's own framing. Nothing here is a full
 * implementation of an API: only what the agents under test read.
 *
 * @module
 */

/** The API a mock model serves. */
export type ApiShape = "responses" | "anthropic" | "gemini" | "chat";

/** One scripted answer of the model. */
export type Answer =
  | {
    kind: "tool";
    id: string;
    name: string;
    args: Record<string, unknown>;
    /** Responses API: the namespace the tool was listed in. */
    namespace?: string;
  }
  | { kind: "text"; text: string };

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
};

/** The HTTP answer of `shape` for `answer`; `stream` as the request asked. */
export function answerResponse(
  shape: ApiShape,
  answer: Answer,
  stream: boolean,
): Response {
  switch (shape) {
    case "responses":
      return sse(
        responsesEvents(answer).map(([event, data]) => ({ event, data })),
      );
    case "anthropic":
      return stream
        ? sse(anthropicEvents(answer).map(([event, data]) => ({ event, data })))
        : Response.json(anthropicMessage(answer));
    case "gemini":
      return stream ? sse([{ data: geminiChunk(answer) }]) : Response.json(geminiChunk(answer));
    case "chat":
      return stream
        ? sse(chatChunks(answer).map((data) => ({ data })))
        : Response.json(chatWhole(answer));
  }
}

function sse(events: { event?: string; data: unknown }[]): Response {
  const text = events.map(({ event, data }) =>
    `${event === undefined ? "" : `event: ${event}\n`}data: ${
      typeof data === "string" ? data : JSON.stringify(data)
    }\n\n`
  ).join("");
  return new Response(text, { headers: SSE_HEADERS });
}

const USAGE_RESPONSES = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

function responsesEvents(answer: Answer): [string, unknown][] {
  const item = answer.kind === "tool"
    ? {
      type: "function_call",
      id: `fc_${answer.id}`,
      call_id: answer.id,
      ...(answer.namespace === undefined ? {} : { namespace: answer.namespace }),
      name: answer.name,
      arguments: JSON.stringify(answer.args),
      status: "completed",
    }
    : {
      type: "message",
      id: "msg_magi_final",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: answer.text, annotations: [] }],
    };
  const response = {
    id: "resp_magi",
    object: "response",
    status: "in_progress",
    output: [],
  };
  return [
    ["response.created", { type: "response.created", response }],
    ["response.output_item.added", {
      type: "response.output_item.added",
      output_index: 0,
      item,
    }],
    ["response.output_item.done", {
      type: "response.output_item.done",
      output_index: 0,
      item,
    }],
    ["response.completed", {
      type: "response.completed",
      response: {
        ...response,
        status: "completed",
        output: [item],
        usage: USAGE_RESPONSES,
      },
    }],
  ];
}

const USAGE_ANTHROPIC = { input_tokens: 10, output_tokens: 5 };

function anthropicEvents(answer: Answer): [string, unknown][] {
  const start = answer.kind === "tool"
    ? { type: "tool_use", id: answer.id, name: answer.name, input: {} }
    : { type: "text", text: "" };
  const delta = answer.kind === "tool"
    ? { type: "input_json_delta", partial_json: JSON.stringify(answer.args) }
    : { type: "text_delta", text: answer.text };
  return [
    ["message_start", {
      type: "message_start",
      message: {
        id: "msg_magi",
        type: "message",
        role: "assistant",
        model: "claude-mock",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: USAGE_ANTHROPIC,
      },
    }],
    ["content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: start,
    }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", {
      type: "message_delta",
      delta: {
        stop_reason: answer.kind === "tool" ? "tool_use" : "end_turn",
        stop_sequence: null,
      },
      usage: { output_tokens: 5 },
    }],
    ["message_stop", { type: "message_stop" }],
  ];
}

function anthropicMessage(answer: Answer): unknown {
  return {
    id: "msg_magi",
    type: "message",
    role: "assistant",
    model: "claude-mock",
    content: [
      answer.kind === "tool"
        ? {
          type: "tool_use",
          id: answer.id,
          name: answer.name,
          input: answer.args,
        }
        : { type: "text", text: answer.text },
    ],
    stop_reason: answer.kind === "tool" ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: USAGE_ANTHROPIC,
  };
}

function geminiChunk(answer: Answer): unknown {
  const part = answer.kind === "tool"
    ? { functionCall: { id: answer.id, name: answer.name, args: answer.args } }
    : { text: answer.text };
  return {
    candidates: [{
      content: { role: "model", parts: [part] },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: {
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      totalTokenCount: 15,
    },
    modelVersion: "gemini-mock",
  };
}

const CHAT_USAGE = {
  prompt_tokens: 10,
  completion_tokens: 5,
  total_tokens: 15,
};

function chatChunks(answer: Answer): unknown[] {
  const base = {
    id: "chatcmpl-magi",
    object: "chat.completion.chunk",
    created: 0,
    model: "mock",
  };
  const delta = answer.kind === "tool"
    ? {
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: answer.id,
        type: "function",
        function: { name: answer.name, arguments: JSON.stringify(answer.args) },
      }],
    }
    : { role: "assistant", content: answer.text };
  return [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    {
      ...base,
      choices: [{
        index: 0,
        delta: {},
        finish_reason: answer.kind === "tool" ? "tool_calls" : "stop",
      }],
      usage: CHAT_USAGE,
    },
    "[DONE]",
  ];
}

function chatWhole(answer: Answer): unknown {
  const message = answer.kind === "tool"
    ? {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: answer.id,
        type: "function",
        function: { name: answer.name, arguments: JSON.stringify(answer.args) },
      }],
    }
    : { role: "assistant", content: answer.text };
  return {
    id: "chatcmpl-magi",
    object: "chat.completion",
    created: 0,
    model: "mock",
    choices: [{
      index: 0,
      message,
      finish_reason: answer.kind === "tool" ? "tool_calls" : "stop",
    }],
    usage: CHAT_USAGE,
  };
}
