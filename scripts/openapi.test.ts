import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_TYPES_FILE, openApiDocument, openApiTypes } from './openapi.ts';

describe('the web API types (apps/web/src/lib/http/openapi.gen.ts)', () => {
  it('are what the server’s OpenAPI document generates today: run `npm run openapi` when this fails', async () => {
    const fresh = await openApiTypes(await openApiDocument());
    expect(fresh).toContain('"/api/v1/chats/{chatId}"');
    // Not toEqual on the whole text: a stale file should say which operation moved, not dump 16k lines.
    const committed = readFileSync(OPENAPI_TYPES_FILE, 'utf8');
    const diff = firstDifference(committed, fresh);
    expect(diff, 'openapi.gen.ts is stale: npm run openapi').toBeNull();
  });
});

/** The first differing line, with its number, or null when the texts match. */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  const left = a.split('\n');
  const right = b.split('\n');
  const index = left.findIndex((line, i) => line !== right[i]);
  const at = index === -1 ? left.length : index;
  return `line ${at + 1}: committed ${JSON.stringify(left[at])}, generated ${JSON.stringify(right[at])}`;
}
