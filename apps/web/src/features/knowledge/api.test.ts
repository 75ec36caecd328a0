import type { KnowledgeDocument } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../lib/http/client.ts';
import { createKnowledgeApi } from './api.ts';

const doc = (n: number): KnowledgeDocument => ({
  documentId: `kd${n}`,
  sourceId: 'ks1',
  title: `Page ${n}`,
  url: `https://wiki.test/${n}`,
  status: 'ready',
  contentType: 'text/html',
  size: 10,
  chunks: 1,
  updatedAt: '2026-11-27T00:00:00.000Z',
});

describe('a source’s documents', () => {
  it('follows the next-page cursor until the last page', async () => {
    const pages = [
      { items: Array.from({ length: 200 }, (_, i) => doc(i)), next: 'c1' },
      { items: Array.from({ length: 200 }, (_, i) => doc(200 + i)), next: 'c2' },
      { items: [doc(400)], next: null },
    ];
    const asked: URL[] = [];
    const fetch = vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      asked.push(url);
      const page = pages[asked.length - 1];
      return new Response(JSON.stringify(page?.items ?? []), {
        status: 200,
        headers: {
          'content-type': 'application/json',
          ...(page?.next ? { 'X-Next-Cursor': page.next } : {}),
        },
      });
    });
    const http = createApiClient({
      baseUrl: 'https://api.test',
      context: () => ({ idToken: 't', user: null }),
      fetch,
      readCookie: () => null,
    });
    const all = await createKnowledgeApi(http).documents('ks1');
    expect(all.map((d) => d.documentId)).toEqual(Array.from({ length: 401 }, (_, i) => `kd${i}`));
    expect(asked.map((u) => u.searchParams.get('cursor'))).toEqual([null, 'c1', 'c2']);
    expect(asked.every((u) => u.searchParams.get('limit') === '200')).toBe(true);
  });
});
