import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Extractor } from './extractor.ts';

let extractor: Extractor | undefined;
afterEach(async () => {
  await extractor?.close();
});

describe('Extractor', () => {
  it('serves the domains in turn: one domain’s pile of documents does not hold another’s back', async () => {
    extractor = new Extractor(Fastify().log);
    const order: string[] = [];
    const read = (domain: string, text: string) =>
      extractor!.file(domain, 'text/plain', Buffer.from(text)).then((out) => order.push(out));
    await Promise.all([read('a', 'a1'), read('a', 'a2'), read('a', 'a3'), read('b', 'b1')]);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('a document the reader runs out of memory on fails alone, with the reason; the next one is read', async () => {
    extractor = new Extractor(Fastify().log);
    // Millions of nested elements: a parse tree far past the reader's heap.
    const deep = extractor.html('a', '<div>'.repeat(4_000_000));
    const next = extractor.file('b', 'text/plain', Buffer.from('still here'));
    await expect(deep).rejects.toThrow('The document needs more memory to read than a document may use');
    expect(await next).toBe('still here');
  }, 60_000);
});
