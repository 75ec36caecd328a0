import { expect } from 'vitest';
import type { TestApp } from '../app.ts';
import { postFile } from '../chats.ts';
import type { TestUser } from '../factories.ts';

const SOURCES = '/api/v1/integration/knowledge';

/**
 * An uploaded-files knowledge source of two short HR documents (vacation: thirty days; parking:
 * the garage opens at seven), indexed before this returns. Its id.
 */
export async function uploadHrHandbook(t: TestApp, admin: TestUser): Promise<string> {
  const src = await t.app.inject({
    method: 'POST',
    url: SOURCES,
    headers: admin.headers,
    payload: { kind: 'files', displayName: 'HR handbook' },
  });
  expect(src.statusCode, src.body).toBe(201);
  const sourceId = (src.json() as { sourceId: string }).sourceId;
  for (const [name, text] of [
    ['vacation.md', '# Vacation\n\nEveryone gets thirty days of paid vacation per year.'],
    ['parking.md', '# Parking\n\nThe garage opens at seven in the morning.'],
  ] as const) {
    const up = await postFile(t.app, `${SOURCES}/${sourceId}/documents`, admin, {
      name,
      type: 'text/markdown',
      data: text,
    });
    expect(up.statusCode, up.body).toBe(201);
  }
  await t.ctx.services.knowledge.ingest.idle();
  return sourceId;
}
