import { TOOL_OUTPUT_MAX_CHARS } from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedHttp } from '../../lib/ssrf.ts';
import { type McpStandin, startMcpStandin } from '../../test/mcp-standin.ts';
import { capOutput, McpConnections, outputText } from './connections.ts';

let mcp: McpStandin;
let guard: ReturnType<typeof createGuardedHttp>;

beforeAll(async () => {
  mcp = await startMcpStandin();
  guard = createGuardedHttp({ allowlist: [`127.0.0.1:${mcp.port}`] });
});
afterAll(async () => {
  await guard?.close();
  await mcp?.close();
});

const opts = (timeoutMs = 5_000) => ({ signal: new AbortController().signal, timeoutMs });

describe('MCP connections', () => {
  it('keeps one connection per key, and closes it once idle', async () => {
    const connections = new McpConnections(guard, 60_000);
    try {
      const target = { url: mcp.url, headers: {} };
      expect(await connections.call('alice|s1', target, 'echo', { text: 'a' }, opts())).toEqual({
        text: 'a',
        isError: false,
      });
      // Connected once: each later call is one request, no new handshake.
      const connected = mcp.requests.length;
      for (const text of ['b', 'c']) await connections.call('alice|s1', target, 'echo', { text }, opts());
      expect(mcp.requests.length - connected).toBe(2);
      expect(connections.size).toBe(1);
      await connections.call('bob|s1', target, 'echo', { text: 'd' }, opts());
      expect(connections.size).toBe(2);
      connections.closeIdle(Date.now() + 60_000);
      expect(connections.size).toBe(0);
    } finally {
      await connections.close();
    }
  });

  it('fails a call that takes longer than its timeout, and connects anew after', async () => {
    const connections = new McpConnections(guard, 60_000);
    try {
      const target = { url: mcp.url, headers: {} };
      await expect(connections.call('carol|s1', target, 'sleep', { ms: 5_000 }, opts(300))).rejects.toThrow();
      expect(connections.size).toBe(0);
      expect((await connections.call('carol|s1', target, 'echo', { text: 'back' }, opts())).text).toBe(
        'back',
      );
    } finally {
      await connections.close();
    }
  });
});

describe('tool output', () => {
  it('is cut past the cap with a note the model reads', () => {
    expect(capOutput('short')).toBe('short');
    const long = 'x'.repeat(TOOL_OUTPUT_MAX_CHARS + 10);
    const cut = capOutput(long);
    expect(cut.startsWith('x'.repeat(TOOL_OUTPUT_MAX_CHARS))).toBe(true);
    expect(cut).toMatch(/Output cut: the tool returned 100010 characters/);
  });

  it('is the text blocks, structured content as JSON, other blocks named', () => {
    expect(
      outputText({
        content: [
          { type: 'text', text: 'one' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      }),
    ).toBe('one\n[image omitted]');
    expect(outputText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });
});
