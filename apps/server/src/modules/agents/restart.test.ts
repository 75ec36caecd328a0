import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { messages } from '../../db/schema/index.ts';
import { makeChat, makeDomain, makeUser } from '../../test/factories.ts';
import { INTERRUPTED_MESSAGE } from './model-calls.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-restart-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
  WEB_DIST: path.join(dataDir, 'no-web'),
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the embedded database after a crash', () => {
  it('a server starting on the data dir ends at once every answer its dead predecessor left streaming', async () => {
    // The first process: an answer half-written when it "died" (its row was never finalised).
    const first = await buildApp({ config, bootstrap: false, logger: false });
    const domain = await makeDomain(first.ctx);
    const alice = await makeUser(first.ctx, { domain });
    const { chat } = await makeChat(first.ctx, alice, { messages: ['Question'] });
    const id = crypto.randomUUID();
    await first.ctx.db.insert(messages).values({
      id,
      chatId: chat.id,
      role: 'assistant',
      content: 'Half an ans',
      status: 'streaming',
    });
    await first.app.close();

    // Seconds later, far inside the stale window a replica of a cluster would have to wait out.
    const second = await buildApp({ config, bootstrap: false, logger: false });
    try {
      expect(second.ctx.soleWriter).toBe(true);
      await second.app.ready();
      // Its scheduler's first pass, at start.
      const deadline = Date.now() + 5_000;
      let row = (await second.ctx.db.select().from(messages).where(eq(messages.id, id)))[0];
      while (row?.status === 'streaming' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        row = (await second.ctx.db.select().from(messages).where(eq(messages.id, id)))[0];
      }
      expect(row).toMatchObject({
        status: 'error',
        content: 'Half an ans',
        error: INTERRUPTED_MESSAGE,
        errorCode: 'UNAVAILABLE',
      });
    } finally {
      await second.app.close();
    }
  });
});
