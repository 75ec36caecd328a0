import { type Attachment, type Citation, TOOL_OUTPUT_MAX_CHARS } from '@assistente/contracts';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { createGuardedHttp } from '../../lib/ssrf.ts';
import { mcpSdk } from './mcp-sdk.ts';

/** Where a tool call goes: the server's address and the headers its requests carry. */
export interface McpTarget {
  url: string;
  headers: Record<string, string>;
  /** OAuth servers: the person's tokens, refreshed once on a 401. */
  authProvider?: OAuthClientProvider;
}

/**
 * What a tool call gave back, as text the model reads; `isError` when the tool said it failed;
 * `citations`, the sources it adds to the answer's (numbered after those already cited).
 */
export interface ToolOutput {
  text: string;
  isError: boolean;
  citations?: Citation[];
  /** Files the call made, kept as the chat's attachments. */
  files?: Attachment[];
}

interface Open {
  client: Promise<Client>;
  lastUsed: number;
  inFlight: number;
}

/** MCP output as text: text blocks as they are, structured content as JSON, other blocks named. */
export function outputText(result: CallToolResult): string {
  const pieces: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') pieces.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) pieces.push(block.resource.text);
    else pieces.push(`[${block.type} omitted]`);
  }
  if (pieces.length === 0 && result.structuredContent) pieces.push(JSON.stringify(result.structuredContent));
  return capOutput(pieces.join('\n'));
}

/** Output past the cap is cut with a note, so the model knows it did not read all of it. */
export function capOutput(text: string): string {
  if (text.length <= TOOL_OUTPUT_MAX_CHARS) return text;
  return `${text.slice(0, TOOL_OUTPUT_MAX_CHARS)}\n[Output cut: the tool returned ${text.length} characters; only the first ${TOOL_OUTPUT_MAX_CHARS} are shown.]`;
}

/**
 * Open MCP client connections, one per user and server (docs/ARCHITECTURE.md#mcp-servers): a chat
 * calling a server's tools ten times connects once. A connection unused for `idleMs` is closed,
 * so open connections follow the people using tools now, not everyone who ever did; one that fails
 * is dropped and the next call connects again.
 */
export class McpConnections {
  private readonly open = new Map<string, Open>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly guard: ReturnType<typeof createGuardedHttp>,
    private readonly idleMs: number,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(50, Math.min(idleMs / 2, 30_000)));
    this.sweeper.unref();
  }

  /** Connections open now (for the bench and the metrics). */
  get size(): number {
    return this.open.size;
  }

  private async connect(target: McpTarget, signal: AbortSignal): Promise<Client> {
    const { Client, StreamableHTTPClientTransport } = await mcpSdk();
    const client = new Client({ name: 'assistente', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: target.headers },
      fetch: this.guard.fetch,
      ...(target.authProvider ? { authProvider: target.authProvider } : {}),
    });
    return client.connect(transport, { signal }).then(() => client);
  }

  /**
   * Calls `name` on the connection kept under `key` (user and server, with the server's version so
   * a changed address or header connects anew). Aborting `signal` cancels the call at the server.
   */
  async call(
    key: string,
    target: McpTarget,
    name: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolOutput> {
    let entry = this.open.get(key);
    if (!entry) {
      entry = { client: this.connect(target, opts.signal), lastUsed: Date.now(), inFlight: 0 };
      this.open.set(key, entry);
    }
    const current = entry;
    current.inFlight++;
    try {
      const client = await current.client;
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: opts.timeoutMs,
        maxTotalTimeout: opts.timeoutMs,
      })) as CallToolResult;
      return { text: outputText(result), isError: result.isError === true };
    } catch (err) {
      // A broken connection is not reused; a tool's own error (a result) never gets here.
      if (this.open.get(key) === current) this.drop(key, current);
      throw err;
    } finally {
      current.inFlight--;
      current.lastUsed = Date.now();
    }
  }

  private drop(key: string, entry: Open): void {
    this.open.delete(key);
    entry.client.then((c) => c.close()).catch(() => {});
  }

  /** Closes connections idle past `idleMs` (none with a call in flight). */
  closeIdle(now = Date.now()): void {
    for (const [key, entry] of this.open) {
      if (entry.inFlight === 0 && now - entry.lastUsed >= this.idleMs) this.drop(key, entry);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map((e) => e.client.then((c) => c.close())));
  }
}
