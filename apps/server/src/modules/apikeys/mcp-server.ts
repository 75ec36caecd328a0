import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { ApiKeyCaller } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { errorResponses } from '../../plugins/routes.ts';
import { knowledgePassages } from '../knowledge/index.ts';

/** Passages `search_knowledge` returns: enough to answer from, few enough for a client's context. */
const SEARCH_PASSAGES = 8;

const text = (t: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(isError ? { isError: true } : {}),
});

/**
 * A tool's failure as MCP says it: a result marked `isError` the client's model can read (budget
 * spent, unknown santito, provider down), not a protocol error. Faults of this server stay thrown.
 */
async function asToolResult(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return text(err.message, true);
    if (err instanceof AppError && (err.code === 'PROVIDER_ERROR' || err.code === 'PROVIDER_TIMEOUT'))
      return text(err.message, true);
    throw err;
  }
}

/** The SDK's server side, loaded by the first MCP request (docs/ARCHITECTURE.md#build-and-run). */
let serverSdk:
  | Promise<
      [
        typeof import('@modelcontextprotocol/sdk/server/mcp.js'),
        typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      ]
    >
  | undefined;
const loadServerSdk = () => {
  serverSdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return serverSdk;
};

/**
 * The MCP server one request talks to, acting as the key's user: every tool goes through the same
 * services, rights, per-key limits and budgets as `/v1` (docs/ARCHITECTURE.md#assistente-as-an-mcp-server).
 */
function mcpServerFor(
  ctx: AppContext,
  caller: ApiKeyCaller,
  { McpServer }: typeof import('@modelcontextprotocol/sdk/server/mcp.js'),
): McpServer {
  const { completions, santitos } = ctx.services;
  const server = new McpServer({ name: 'assistente', version: '1.0.0' });

  server.registerTool(
    'list_santitos',
    {
      title: 'List santitos',
      description:
        'The assistants (santitos) of your organisation you may ask, with their ids, names and what they are for.',
      annotations: { readOnlyHint: true },
    },
    async () => {
      const usable = await santitos.listUsable(caller);
      if (usable.length === 0) return text('There is no santito you may ask.');
      return text(
        usable
          .map(
            (s) => `- ${s.id}: ${s.name}${s.description ? ` — ${s.description.replace(/\s+/g, ' ')}` : ''}`,
          )
          .join('\n'),
      );
    },
  );

  server.registerTool(
    'ask_santito',
    {
      title: 'Ask a santito',
      description:
        'Ask one of your organisation’s assistants (santitos) a question; it answers with its own instructions and knowledge. Find ids with list_santitos.',
      inputSchema: {
        santitoId: z.string().min(1).max(100).describe('The santito’s id'),
        question: z.string().min(1).max(100_000).describe('What to ask'),
      },
    },
    ({ santitoId, question }, extra) =>
      asToolResult(async () => {
        const { result } = await completions.complete(
          caller,
          { model: `santito:${santitoId}`, messages: [{ role: 'user', content: question }] },
          extra.signal,
        );
        if (result.failure) return text(`${result.text}\n\n(${result.failure.message})`, true);
        return text(result.text);
      }),
  );

  server.registerTool(
    'search_knowledge',
    {
      title: 'Search knowledge',
      description:
        'Search the knowledge (documents, wiki pages) of the santitos you may use — or of one santito — for passages about a query, with their sources.',
      inputSchema: {
        query: z.string().min(1).max(2_000).describe('What to look for'),
        santitoId: z.string().min(1).max(100).optional().describe('Only this santito’s knowledge'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ query, santitoId }) =>
      asToolResult(async () => {
        const usable = santitoId
          ? [await santitos.findUsable(caller, santitoId)].filter((s) => s !== undefined)
          : await santitos.listUsable(caller);
        if (santitoId && usable.length === 0)
          return text(`There is no santito ${santitoId} you may use.`, true);
        const found = await knowledgePassages(
          ctx,
          caller.domain.id,
          usable.flatMap((s) => s.knowledge),
          // The query reaches an embeddings model: through the PII filter as any text sent (docs/ARCHITECTURE.md#pii-filter).
          await ctx.services.pii.screen(caller.domain.id, query),
          SEARCH_PASSAGES,
        );
        if (found.passages.length === 0) return text('Nothing in the knowledge you may use matches this.');
        const sources = found.citations.map((c, i) => `[${i + 1}] ${c.title}${c.url ? ` <${c.url}>` : ''}`);
        return text(`${found.passages.join('\n\n')}\n\nSources:\n${sources.join('\n')}`);
      }),
  );

  return server;
}

/** The JSON-RPC error a stateless MCP server answers to the methods it does not offer. */
const methodNotAllowed = {
  jsonrpc: '2.0',
  error: {
    code: -32000,
    message: 'Method not allowed: this MCP server keeps no sessions; POST each request.',
  },
  id: null,
} as const;

/**
 * Assistente as an MCP server (streamable HTTP, stateless): `POST /mcp` with `Authorization: Bearer
 * ak_…`. Each request gets its own server and transport, so any replica answers any request.
 */
export async function mcpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags: ['mcp'],
        summary:
          'Model Context Protocol (streamable HTTP): tools list_santitos, ask_santito, search_knowledge',
        description:
          'A JSON-RPC message (or batch) of MCP; answered as JSON. Stateless: no session id, no GET stream.',
        body: z.unknown().describe('A JSON-RPC request, notification or batch'),
        response: {
          200: z.unknown().describe('The JSON-RPC response(s)'),
          202: z.null().describe('Notifications accepted'),
          ...errorResponses('VALIDATION_FAILED', 'UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED', 'INTERNAL'),
        },
      },
    },
    async (request, reply) => {
      const [mcp, { StreamableHTTPServerTransport }] = await loadServerSdk();
      const server = mcpServerFor(ctx, request.caller, mcp);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // Headers the request's hooks set (security, CORS) are kept: hijacking would drop them.
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/',
      schema: { hide: true },
      handler: async (_request, reply) => reply.status(405).header('allow', 'POST').send(methodNotAllowed),
    });
  }
}
