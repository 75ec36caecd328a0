import { describe, expect, it } from 'vitest';
import { type ArrayElement, arrayElements, JsonShapeError } from './import-json.ts';

const LIMITS = { maxDocumentBytes: 1024 * 1024, maxElementBytes: 64 * 1024 };

/** The document in chunks of `size` bytes (1: every byte its own chunk). */
async function* chunks(text: string | Buffer, size: number) {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function elements(text: string | Buffer, size = 7, limits = LIMITS): Promise<ArrayElement[]> {
  const out: ArrayElement[] = [];
  for await (const e of arrayElements(chunks(text, size), limits)) out.push(e);
  return out;
}

const parsed = (list: ArrayElement[]) =>
  list.map((e) => (e.bytes ? JSON.parse(e.bytes.toString('utf8')) : null));

async function shapeError(text: string, limits = LIMITS): Promise<JsonShapeError> {
  try {
    await elements(text, 5, limits);
  } catch (err) {
    if (err instanceof JsonShapeError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('arrayElements', () => {
  const doc = [
    { title: 'a [tricky] {one}', mapping: { x: { text: 'quote \\" and \\\\ and "[' } } },
    { title: 'ação — 日本語 — 🎉', list: [1, [2, [3]], { y: '}' }] },
    { empty: {} },
  ];

  it('yields each element of the top-level array, whatever the chunking', async () => {
    const text = JSON.stringify(doc, null, 2);
    for (const size of [1, 2, 3, 7, 64, 100_000]) {
      expect(parsed(await elements(text, size)), `chunks of ${size}`).toEqual(doc);
    }
  });

  it('reads past a byte order mark and whitespace, and takes primitives and an empty array', async () => {
    expect(
      parsed(
        await elements(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n [ {"a":1} ] \n')]), 1),
      ),
    ).toEqual([{ a: 1 }]);
    expect(parsed(await elements('[1, "x,]", true ,null,{"b":[]}]', 1))).toEqual([
      1,
      'x,]',
      true,
      null,
      { b: [] },
    ]);
    expect(await elements('[]')).toEqual([]);
    expect(await elements('  [ \n ]  ')).toEqual([]);
  });

  it('gives an element over the element limit without its bytes, and goes on', async () => {
    const big = { text: 'x'.repeat(200) };
    const list = await elements(JSON.stringify([{ a: 1 }, big, { b: 2 }]), 16, {
      maxDocumentBytes: 10_000,
      maxElementBytes: 100,
    });
    expect(list.map((e) => e.bytes === null)).toEqual([false, true, false]);
    expect(list[1]?.size).toBe(JSON.stringify(big).length);
    expect(parsed([list[0]!, list[2]!])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('refuses what is not an array, an array that does not end, and content after it', async () => {
    expect((await shapeError('{"mapping":{}}')).reason).toBe('not_array');
    expect((await shapeError('')).reason).toBe('not_array');
    expect((await shapeError('<html>')).reason).toBe('not_array');
    expect((await shapeError('[{"a":1}, {"b":')).reason).toBe('malformed');
    expect((await shapeError('[{"a":"]}')).reason).toBe('malformed');
    expect((await shapeError('[1] [2]')).reason).toBe('malformed');
  });

  it('stops at the document limit', async () => {
    const text = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ i, pad: 'y'.repeat(50) })));
    expect((await shapeError(text, { maxDocumentBytes: 1000, maxElementBytes: 1000 })).reason).toBe(
      'too_large',
    );
  });
});
