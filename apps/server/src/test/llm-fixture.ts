// A real HTTP server speaking the OpenAI Chat Completions API (and Ollama's native /api/chat), so
// unit, integration and e2e tests and the benches exercise the product's real provider code paths.
// Plain node:http only: the e2e global setup and the benches start it from plain Node.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { barChartPng } from './png.ts';

/** What the fixture answers to the next chat request(s). */
export interface LlmScript {
  /** The answer text (default "Hello from the fixture."). Split into tokens at word boundaries. */
  text?: string;
  /** Exact chunks to stream; overrides `text` and `tokensPerChunk`. */
  chunks?: string[];
  /** Tokens (words with their trailing space) per streamed chunk; default 1. */
  tokensPerChunk?: number;
  /** Delay before the first chunk (ms); default 0. */
  firstDelayMs?: number;
  /** Delay between chunks (ms); default 0. */
  delayMs?: number;
  /** After this many chunks, fail the stream the `failMode` way. */
  failAfterChunks?: number;
  /** `destroy` drops the socket; `error-event` sends an OpenAI `{error}` event and ends. Default destroy. */
  failMode?: 'destroy' | 'error-event';
  /** Answer this HTTP status with an OpenAI error body instead (401, 429, 500…). */
  status?: number;
  /** Error message for `status` and `error-event`. */
  errorMessage?: string;
  /**
   * Tool calls the model makes after its text (OpenAI dialect): streamed as OpenAI does, the name
   * first and the arguments in two fragments; the finish reason becomes "tool_calls".
   */
  toolCalls?: Array<{ id?: string; name: string; arguments: string }>;
  /** `finish_reason` of the final chunk; default "stop" ("tool_calls" with `toolCalls`). */
  finishReason?: string;
  /** Usage reported; default: prompt = words in the request's messages, completion = tokens sent. */
  usage?: { promptTokens: number; completionTokens: number };
  /** Answer with a redirect to this URL (any path), status 307. */
  redirectTo?: string;
  /**
   * Benches: each chunk becomes `⟦<epoch ms>⟧ `, the moment it was written (epoch ms with
   * sub-ms precision, from `performance.timeOrigin + performance.now()`), so a client can tell
   * how long each token took to reach it.
   */
  stamp?: boolean;
}

/** Now as epoch milliseconds with sub-millisecond precision, comparable across processes. */
export const epochNow = () => performance.timeOrigin + performance.now();
/** The stamps in a text built from `stamp: true` chunks. */
export const readStamps = (text: string): number[] =>
  [...text.matchAll(/⟦([\d.]+)⟧/g)].map((m) => Number(m[1]));

export interface RecordedRequest {
  method: string;
  /** Path with query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or undefined. */
  body: unknown;
  at: number;
}

export interface LlmFixture {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>/v1` — the OpenAI-compatible base URL. */
  baseUrl: string;
  host: string;
  port: number;
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[];
  /** Requests to the chat endpoints only. */
  chatRequests(): RecordedRequest[];
  /** Sets the default script for every following request. */
  setScript(script: LlmScript): void;
  /** Queues one-shot scripts, used (in order) before the default one. */
  enqueue(...scripts: LlmScript[]): void;
  /** Models listed by `GET /v1/models` and `GET /api/tags`. */
  setModels(models: string[]): void;
  /** Forgets recorded requests and queued scripts; restores the default script and models. */
  reset(): void;
  /** Streams in progress right now. */
  activeStreams(): number;
  /** Resolves once `n` chat requests have arrived in total. */
  waitForChatRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface LlmFixtureOptions {
  host?: string;
  port?: number;
  script?: LlmScript;
  models?: string[];
  /** Keep no request log (benches with thousands of requests). */
  record?: boolean;
  /** Picks a chat request's script from its body (e.g. from the model name); else the queue/default. */
  scriptFor?: (body: unknown) => LlmScript | undefined;
}

const DEFAULT_TEXT = 'Hello from the fixture.';
/** Dimensions of the fixture's embeddings. */
export const FIXTURE_EMBEDDING_DIMS = 256;

/**
 * A deterministic embedding: a hashed bag of the text's folded words, unit length. Texts sharing
 * words point the same way, so retrieval tests over it are meaningful without a model.
 */
export function fixtureEmbedding(text: string): number[] {
  const v = new Array<number>(FIXTURE_EMBEDDING_DIMS).fill(0);
  const words = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .match(/[a-z0-9]{2,}/g);
  for (const w of words ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
    const slot = (h >>> 0) % FIXTURE_EMBEDDING_DIMS;
    v[slot] = (v[slot] ?? 0) + ((h >>> 31) & 1 ? -1 : 1);
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

function embeddingInputs(body: unknown): string[] {
  const input = (body as { input?: unknown } | undefined)?.input;
  if (typeof input === 'string') return [input];
  return Array.isArray(input) ? input.map((x) => String(x)) : [];
}
const DEFAULT_MODELS = ['fixture-small', 'fixture-large'];

/** Splits text into "tokens": words with their trailing whitespace, so joining them gives the text back. */
export function fixtureTokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

function chunksOf(script: LlmScript): string[] {
  if (script.chunks) return script.chunks;
  const tokens = fixtureTokens(script.text ?? DEFAULT_TEXT);
  const per = Math.max(1, script.tokensPerChunk ?? 1);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += per) out.push(tokens.slice(i, i + per).join(''));
  return out;
}

function countPromptWords(body: unknown): number {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return 0;
  let n = 0;
  for (const m of messages) {
    const content = (m as { content?: unknown }).content;
    if (typeof content === 'string') n += fixtureTokens(content).length;
    else if (Array.isArray(content)) {
      for (const part of content) {
        const text = (part as { text?: unknown }).text;
        if (typeof text === 'string') n += fixtureTokens(text).length;
      }
    }
  }
  return n;
}

/**
 * Ends the connection mid-response (no chunked terminator), a moment after the last write so the
 * client has read what came before — as when a provider dies between two tokens.
 */
function dropAfterFlush(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  socket.write('', () => setTimeout(() => socket.destroy(), 50));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  if (parts.length === 0) return undefined;
  const raw = Buffer.concat(parts).toString('utf8');
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Starts the fixture on a random local port (or `opts.port`). */
export async function startLlmFixture(opts: LlmFixtureOptions = {}): Promise<LlmFixture> {
  const host = opts.host ?? '127.0.0.1';
  const defaultScript: LlmScript = opts.script ?? {};
  const defaultModels = opts.models ?? DEFAULT_MODELS;
  const record = opts.record ?? true;
  let script = defaultScript;
  let models = defaultModels;
  const queue: LlmScript[] = [];
  const requests: RecordedRequest[] = [];
  let chatCount = 0;
  let active = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const sockets = new Set<Socket>();

  const nextScript = (body: unknown): LlmScript => opts.scriptFor?.(body) ?? queue.shift() ?? script;

  function noteChat(): void {
    chatCount++;
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i];
      if (w && chatCount >= w.n) {
        waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  function json(res: ServerResponse, status: number, body: unknown): void {
    const data = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
    res.end(data);
  }

  function errorBody(s: LlmScript, status: number) {
    const type =
      status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : 'server_error';
    return { error: { message: s.errorMessage ?? `fixture error ${status}`, type, code: String(status) } };
  }

  async function openAiChat(res: ServerResponse, body: unknown, s: LlmScript) {
    const b = (body ?? {}) as {
      stream?: boolean;
      model?: string;
      stream_options?: { include_usage?: boolean };
    };
    const model = b.model ?? 'fixture';
    const chunks = chunksOf(s);
    const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
    const created = Math.floor(Date.now() / 1000);
    const promptTokens = s.usage?.promptTokens ?? countPromptWords(body);
    const toolCalls = (s.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_fixture_${i}`,
      type: 'function' as const,
      function: { name: c.name, arguments: c.arguments },
    }));
    const finish = s.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop');

    if (!b.stream) {
      if (s.firstDelayMs) await sleep(s.firstDelayMs);
      const content = chunks.join('');
      const message = {
        role: 'assistant',
        content: toolCalls.length && !content ? null : content,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      };
      json(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: s.usage?.completionTokens ?? chunks.length,
          total_tokens: promptTokens + (s.usage?.completionTokens ?? chunks.length),
        },
      });
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const base = { id, object: 'chat.completion.chunk', created, model };
    await play(res, s, chunks, {
      start: () =>
        send({
          ...base,
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
        }),
      chunk: (chunk) => {
        const content = s.stamp ? `⟦${epochNow().toFixed(3)}⟧ ` : chunk;
        send({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] });
      },
      errorEvent: () => send(errorBody(s, 500)),
      finish: (sent) => {
        const fragment = (tool_calls: unknown) =>
          send({ ...base, choices: [{ index: 0, delta: { tool_calls }, finish_reason: null }] });
        for (const [index, call] of toolCalls.entries()) {
          const args = call.function.arguments;
          const half = Math.ceil(args.length / 2);
          fragment([
            { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
          ]);
          fragment([{ index, function: { arguments: args.slice(0, half) } }]);
          fragment([{ index, function: { arguments: args.slice(half) } }]);
        }
        send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
        if (b.stream_options?.include_usage) {
          const completion = s.usage?.completionTokens ?? sent;
          send({
            ...base,
            choices: [],
            usage: {
              prompt_tokens: promptTokens,
              completion_tokens: completion,
              total_tokens: promptTokens + completion,
            },
          });
        }
        res.write('data: [DONE]\n\n');
      },
    });
  }

  /** Ollama's native API, as ollama-ai-provider-v2 speaks it: NDJSON lines, `done: true` last. */
  async function ollamaChat(res: ServerResponse, body: unknown, s: LlmScript) {
    const b = (body ?? {}) as { stream?: boolean; model?: string };
    const model = b.model ?? 'fixture';
    const chunks = chunksOf(s);
    const promptTokens = s.usage?.promptTokens ?? countPromptWords(body);
    const line = (content: string, done: boolean, extra: Record<string, unknown> = {}) => ({
      model,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content },
      done,
      ...extra,
    });
    const final = (sent: number) => ({
      done_reason: s.finishReason ?? 'stop',
      prompt_eval_count: promptTokens,
      eval_count: s.usage?.completionTokens ?? sent,
    });
    if (b.stream === false) {
      if (s.firstDelayMs) await sleep(s.firstDelayMs);
      json(res, 200, line(chunks.join(''), true, final(chunks.length)));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.flushHeaders();
    await play(res, s, chunks, {
      chunk: (chunk) => res.write(`${JSON.stringify(line(chunk, false))}\n`),
      errorEvent: () => res.write(`${JSON.stringify({ error: s.errorMessage ?? 'fixture error' })}\n`),
      finish: (sent) => res.write(`${JSON.stringify(line('', true, final(sent)))}\n`),
    });
  }

  /**
   * Plays a script's chunks on a streaming answer the same way in both dialects: the first delay,
   * the pause between chunks, a failure after N chunks (an error event or a dropped connection),
   * and nothing more once the client went away. `finish` writes the dialect's last lines.
   */
  async function play(
    res: ServerResponse,
    s: LlmScript,
    chunks: string[],
    out: {
      start?: () => void;
      chunk: (text: string) => void;
      errorEvent: () => void;
      finish: (sent: number) => void;
    },
  ) {
    let aborted = false;
    res.on('close', () => {
      if (!res.writableFinished) aborted = true;
    });
    active++;
    try {
      if (s.firstDelayMs) await sleep(s.firstDelayMs);
      out.start?.();
      const fail = () => {
        if (s.failMode === 'error-event') {
          out.errorEvent();
          res.end();
        } else dropAfterFlush(res);
      };
      let sent = 0;
      for (const chunk of chunks) {
        if (aborted) return;
        if (s.failAfterChunks !== undefined && sent >= s.failAfterChunks) return fail();
        if (sent > 0 && s.delayMs) await sleep(s.delayMs);
        if (aborted) return;
        out.chunk(chunk);
        sent++;
      }
      if (s.failAfterChunks !== undefined && sent >= s.failAfterChunks) return fail();
      out.finish(sent);
      res.end();
    } finally {
      active--;
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://fixture');
      const path = url.pathname;
      const isChat = req.method === 'POST' && (path === '/v1/chat/completions' || path === '/api/chat');
      if (record) {
        requests.push({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          body,
          at: Date.now(),
        });
      }
      const s = isChat ? nextScript(body) : script;
      if (isChat) noteChat();

      if (s.redirectTo) {
        res.writeHead(307, { location: s.redirectTo });
        res.end();
        return;
      }
      if (s.status && s.status >= 400) {
        json(res, s.status, errorBody(s, s.status));
        return;
      }
      if (req.method === 'GET' && path === '/v1/models') {
        json(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fixture' })),
        });
        return;
      }
      if (req.method === 'GET' && path === '/api/tags') {
        json(res, 200, { models: models.map((name) => ({ name, model: name, size: 0, digest: 'x' })) });
        return;
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') return openAiChat(res, body, s);
      if (req.method === 'POST' && path === '/api/chat') return ollamaChat(res, body, s);
      if (req.method === 'POST' && path === '/v1/images/generations') {
        // OpenAI's Images API: the picture as base64 PNG; a prompt its safety system refuses, 400.
        const prompt = String((body as { prompt?: unknown } | undefined)?.prompt ?? '');
        if (prompt.includes('forbidden')) {
          json(res, 400, {
            error: {
              message: 'Your request was rejected by the safety system.',
              type: 'image_generation_user_error',
            },
          });
          return;
        }
        json(res, 200, {
          created: Math.floor(Date.now() / 1000),
          data: [{ b64_json: barChartPng([prompt.length % 7, 3, 5, 2], 64, 64).toString('base64') }],
        });
        return;
      }
      if (req.method === 'POST' && path === '/v1/embeddings') {
        const inputs = embeddingInputs(body);
        const model = (body as { model?: unknown } | undefined)?.model;
        json(res, 200, {
          object: 'list',
          model,
          data: inputs.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: fixtureEmbedding(text),
          })),
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        });
        return;
      }
      if (req.method === 'POST' && path === '/api/embed') {
        const inputs = embeddingInputs(body);
        // As Ollama answers (its clients read the timing and token counts too).
        json(res, 200, {
          model: (body as { model?: unknown }).model,
          embeddings: inputs.map(fixtureEmbedding),
          total_duration: 1_000_000,
          load_duration: 100_000,
          prompt_eval_count: inputs.length,
        });
        return;
      }
      // Gemini's embeddings (generativelanguage v1beta): one text, or a batch of requests.
      const gemini = /^\/v1beta\/models\/([^/:]+):(embedContent|batchEmbedContents)$/.exec(path);
      if (req.method === 'POST' && gemini) {
        const textOf = (content: unknown) =>
          ((content as { parts?: { text?: unknown }[] } | undefined)?.parts ?? [])
            .map((p) => (typeof p.text === 'string' ? p.text : ''))
            .join('');
        if (gemini[2] === 'embedContent') {
          const content = (body as { content?: unknown } | undefined)?.content;
          json(res, 200, { embedding: { values: fixtureEmbedding(textOf(content)) } });
        } else {
          const requests = (body as { requests?: { content?: unknown }[] } | undefined)?.requests ?? [];
          json(res, 200, {
            embeddings: requests.map((r) => ({ values: fixtureEmbedding(textOf(r.content)) })),
          });
        }
        return;
      }
      json(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
    })().catch(() => {
      if (!res.headersSent) json(res, 500, { error: { message: 'fixture failure', type: 'server_error' } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    host,
    port,
    requests,
    chatRequests: () =>
      requests.filter(
        (r) => r.method === 'POST' && (r.path === '/v1/chat/completions' || r.path === '/api/chat'),
      ),
    setScript(s) {
      script = s;
    },
    enqueue(...s) {
      queue.push(...s);
    },
    setModels(m) {
      models = m;
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
      chatCount = 0;
      script = defaultScript;
      models = defaultModels;
    },
    activeStreams: () => active,
    waitForChatRequests(n, timeoutMs = 5_000) {
      if (chatCount >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`fixture: ${n} chat requests not seen`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
