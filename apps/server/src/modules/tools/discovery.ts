import { type McpDiscoveryFailure, McpLimits, type McpTool } from '@assistente/contracts';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { addressProblemOf, BlockedUrlError } from '../../lib/ssrf.ts';
import { type McpSdk, mcpSdk } from './mcp-sdk.ts';
import type { ToolsState } from './state.ts';

/** What a discovery found: the server's tools, or why it could not list them. */
export type Discovery =
  | { ok: true; tools: McpTool[] }
  | { ok: false; reason: McpDiscoveryFailure; message: string };

/** Why a connection or a listing failed, in the words the web translates, and the detail as it came. */
function failureOf(sdk: McpSdk, err: unknown): { reason: McpDiscoveryFailure; message: string } {
  const { StreamableHTTPError, McpError, ErrorCode } = sdk;
  const message = err instanceof Error ? err.message : String(err);
  for (let e = err, depth = 0; e && depth < 6; depth++) {
    if (e instanceof BlockedUrlError) return { reason: 'blocked', message };
    e = e instanceof Error ? e.cause : undefined;
  }
  if (err instanceof StreamableHTTPError && (err.code === 401 || err.code === 403))
    return { reason: 'unauthorized', message };
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return { reason: 'timeout', message };
  const problem = addressProblemOf(err);
  if (problem === 'timeout') return { reason: 'timeout', message };
  if (problem)
    return {
      reason: problem === 'refused' || problem === 'unresolvable' ? 'unreachable' : 'blocked',
      message,
    };
  if (/fetch failed|ECONNRESET|socket/i.test(message)) return { reason: 'unreachable', message };
  return { reason: 'not_mcp', message };
}

/**
 * Connects to a server as an MCP client (streamable HTTP, through the SSRF guard) and lists its
 * tools, following `nextCursor` up to the kept maximum. Never throws: a failure is a result.
 */
export async function discoverTools(
  s: ToolsState,
  target: { url: string; headers: Record<string, string>; authProvider?: OAuthClientProvider },
): Promise<Discovery> {
  const sdk = await mcpSdk();
  const { Client, StreamableHTTPClientTransport } = sdk;
  const client = new Client({ name: 'assistente', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    requestInit: { headers: target.headers },
    fetch: s.guard.fetch,
    ...(target.authProvider ? { authProvider: target.authProvider } : {}),
  });
  const signal = AbortSignal.timeout(McpLimits.discoverTimeoutMs);
  const options = { signal, timeout: McpLimits.discoverTimeoutMs };
  try {
    await client.connect(transport, options);
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, options);
      for (const t of page.tools.slice(0, McpLimits.toolsPerServer - tools.length)) {
        tools.push({
          name: t.name,
          title: t.title ?? t.annotations?.title ?? null,
          description: t.description ?? null,
          inputSchema: t.inputSchema as Record<string, unknown>,
          readOnly: t.annotations?.readOnlyHint === true,
        });
      }
      cursor = tools.length < McpLimits.toolsPerServer ? page.nextCursor : undefined;
    } while (cursor);
    return { ok: true, tools };
  } catch (err) {
    if (signal.aborted) {
      return {
        ok: false,
        reason: 'timeout',
        message: `No answer within ${McpLimits.discoverTimeoutMs / 1000} s`,
      };
    }
    return { ok: false, ...failureOf(sdk, err) };
  } finally {
    await client.close().catch(() => {});
  }
}
