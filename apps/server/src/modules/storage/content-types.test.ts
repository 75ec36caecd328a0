import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveUploadType, Sniffer, sniff } from './content-types.ts';

/** What the Sniffer learns of `data` fed in chunks cut at `cuts`. */
function sniffInChunks(data: Buffer, cuts: number[]) {
  const sniffer = new Sniffer();
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    sniffer.update(data.subarray(from, cut));
    from = cut;
  }
  sniffer.update(data.subarray(from));
  return sniffer.finish();
}

/** Text as the content checks have always defined it: UTF-8 without NUL bytes. */
function isTextWhole(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

describe('sniffing an upload on its way', () => {
  it('finds text split across chunks anywhere in a character', () => {
    const data = Buffer.from('ação — 😀 olá', 'utf8');
    for (let cut = 0; cut <= data.length; cut++) {
      expect(sniffInChunks(data, [cut]).text, `cut at ${cut}`).toBe(true);
      expect(sniffInChunks(data, [cut, Math.min(data.length, cut + 1)]).text).toBe(true);
    }
  });

  it('refuses as text a NUL, a broken sequence, or a character cut short at the end', () => {
    expect(sniffInChunks(Buffer.from('abc\0def'), [5]).text).toBe(false);
    expect(sniffInChunks(Buffer.from([0x61, 0xc3, 0x28, 0x61]), [2]).text).toBe(false);
    expect(sniffInChunks(Buffer.from([0x61, 0x62, 0xe2, 0x82]), [3]).text).toBe(false);
    expect(sniffInChunks(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), [1]).text).toBe(true);
  });

  it('agrees with a check of the whole file however it is chunked', () => {
    const bytes = fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a));
    const texty = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => Buffer.from(s, 'utf8'));
    fc.assert(
      fc.property(fc.oneof(bytes, texty), fc.array(fc.nat({ max: 64 }), { maxLength: 6 }), (data, cuts) => {
        const sniffed = sniffInChunks(
          data,
          cuts.map((c) => Math.min(c, data.length)),
        );
        expect(sniffed.text).toBe(isTextWhole(data));
        expect(sniffed.head.equals(data.subarray(0, 1024))).toBe(true);
      }),
    );
  });

  it('keeps only the first KiB, where the signatures are', () => {
    const data = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x20)]);
    const sniffed = sniffInChunks(data, [3, 700, 4000]);
    expect(sniffed.head.equals(data.subarray(0, 1024))).toBe(true);
    expect(resolveUploadType('application/pdf', 'a.pdf', sniffed)).toBe('application/pdf');
    expect(() => resolveUploadType('image/png', 'a.png', sniff(data))).toThrow();
  });
});
