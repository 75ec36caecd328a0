// A real MCP server (the official SDK, streamable HTTP over node:http on loopback): what the tools
// module's tests connect to in place of a third party's server.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpStandin {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  /** Headers of every request received, in order. */
  requests: Array<{ method: string; headers: IncomingMessage['headers'] }>;
  /** Tool calls received, in order. */
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  /** Calls of `sleep` that ended because the client cancelled them. */
  cancelled: number;
  close(): Promise<void>;
}

export interface McpStandinOptions {
  /** Answer 401 unless this header has this value. */
  requireHeader?: { name: string; value: string };
  /** How many extra tools to offer beside `echo` and `lookup` (`tool_0`, `tool_1`, …). */
  extraTools?: number;
}

function newServer(extraTools: number, seen: Pick<McpStandin, 'calls' | 'cancelled'>): McpServer {
  const server = new McpServer({ name: 'standin', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Says back what it is given', inputSchema: { text: z.string() } },
    async ({ text }) => {
      seen.calls.push({ name: 'echo', args: { text } });
      return { content: [{ type: 'text', text }] };
    },
  );
  server.registerTool(
    'lookup',
    {
      title: 'Look up a record',
      description: 'Reads one record',
      inputSchema: { id: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ id }) => {
      seen.calls.push({ name: 'lookup', args: { id } });
      return { content: [{ type: 'text', text: `record ${id}` }] };
    },
  );
  server.registerTool(
    'sleep',
    { description: 'Waits this many milliseconds', inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      seen.calls.push({ name: 'sleep', args: { ms } });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          seen.cancelled++;
          resolve();
        });
      });
      return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
    },
  );
  for (let i = 0; i < extraTools; i++) {
    server.registerTool(`tool_${i}`, { description: `Extra tool ${i}` }, async () => ({
      content: [{ type: 'text', text: String(i) }],
    }));
  }
  return server;
}

/** Starts the stand-in on a random loopback port; stateless, as most hosted MCP servers are. */
export async function startMcpStandin(opts: McpStandinOptions = {}): Promise<McpStandin> {
  const requests: McpStandin['requests'] = [];
  const seen = { calls: [] as McpStandin['calls'], cancelled: 0 };
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? 'GET', headers: req.headers });
    void (async () => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const need = opts.requireHeader;
      if (need && req.headers[need.name.toLowerCase()] !== need.value) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const server = newServer(opts.extraTools ?? 0, seen);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    calls: seen.calls,
    get cancelled() {
      return seen.cancelled;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
