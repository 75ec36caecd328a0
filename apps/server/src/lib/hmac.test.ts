import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from './hmac.ts';

describe('hmacSha256', () => {
  it("equals node:crypto's HMAC for every key length up to a block and messages of any size", () => {
    const messages = ['', 'a', 'eyJhbGciOiJIUzI1NiJ9.e30', 'é€😀 unicode', 'x'.repeat(700), 'y'.repeat(5000)];
    for (let keyLength = 0; keyLength <= 64; keyLength += 8) {
      const key = randomBytes(keyLength);
      const mac = hmacSha256(key);
      // Twice each, and a long message before short ones: the buffers it reuses keep nothing over.
      for (const m of [...messages, ...[...messages].reverse()]) {
        expect(mac(m).toString('hex'), `${keyLength}/${m.length}`).toBe(
          createHmac('sha256', key).update(m).digest('hex'),
        );
      }
    }
  });

  it('refuses a key longer than a block rather than compute something else', () => {
    expect(() => hmacSha256(randomBytes(65))).toThrow(/at most 64 bytes/);
  });
});
