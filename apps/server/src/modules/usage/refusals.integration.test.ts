import { ApiKeyCreatedSchema, BudgetSchema, UsageMeSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { messages, usageEvents } from '../../db/schema/index.ts';
import { useAgentsSuite } from '../../test/agents-suite.ts';
import { makeUser } from '../../test/factories.ts';

// A budget without room refuses a send before the model is called, on every path, saying when it
// resets (docs/ARCHITECTURE.md#usage-prices-and-budgets).

const { the, connect, rid } = useAgentsSuite();

async function budgetFor(userId: string, limit: { tokens?: number; costMicros?: number }) {
  const res = await the.t.call('POST', '/api/v1/usage/budgets', the.admin, {
    scope: { kind: 'user', userId },
    period: 'month',
    limit,
  });
  expect(res.statusCode, res.body).toBe(201);
  return BudgetSchema.parse(res.json());
}

describe('a send over budget', () => {
  it('on the websocket: an error frame BUDGET_EXCEEDED with resetsAt, no answer left streaming, nothing in the ledger', async () => {
    const viewer = await makeUser(the.t.ctx, { domain: the.dom });
    const budget = await budgetFor(viewer.user.id, { tokens: 50 });
    const s = await connect(viewer);
    s.send({ type: 'chat.send', requestId: rid(), chatId: null, content: 'Tell me everything about foxes' });
    const refused = await s.next('error', (f) => f.code === 'BUDGET_EXCEEDED');
    expect(refused.resetsAt).toBe(budget.used.resetsAt);
    expect(new Date(refused.resetsAt ?? 0).getTime()).toBeGreaterThan(Date.now());
    expect(
      await the.t.ctx.db.select().from(usageEvents).where(eq(usageEvents.userId, viewer.user.id)),
    ).toEqual([]);
    const streaming = await the.t.ctx.db.select().from(messages).where(eq(messages.status, 'streaming'));
    expect(streaming).toEqual([]);
    // The answer's row, made beside the context's read, ended with the refusal (seen after a reload).
    const answers = await the.t.ctx.db.select().from(messages).where(eq(messages.role, 'assistant'));
    expect(answers.map((m) => [m.status, m.errorCode])).toEqual([['error', 'BUDGET_EXCEEDED']]);
    // What the person sees in settings: the budget, used 0 of 50, the same reset.
    const me = UsageMeSchema.parse((await the.t.call('GET', '/api/v1/usage/me', viewer)).json());
    expect(me.budgets).toEqual([
      expect.objectContaining({ budgetId: budget.id, scope: 'user', percent: 0, warnAtPercent: 80 }),
    ]);
  });

  it('on /v1: the official client gets 429 insufficient_quota', async () => {
    const dev = await makeUser(the.t.ctx, { domain: the.dom });
    await budgetFor(dev.user.id, { tokens: 10 });
    const made = await the.t.call('POST', '/api/v1/api_keys', dev, { name: 'over budget' });
    const key = ApiKeyCreatedSchema.parse(made.json());
    const client = new OpenAI({
      apiKey: key.secret,
      baseURL: `${the.wsUrl.replace('ws:', 'http:').replace('/api/v1/agents/chat/', '')}/v1`,
      maxRetries: 0,
    });
    const err = await client.chat.completions
      .create({ model: the.modelId, messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err).toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
    expect(await the.t.ctx.db.select().from(usageEvents).where(eq(usageEvents.userId, dev.user.id))).toEqual(
      [],
    );
  });

  it('a money budget and a model with no price: PRICE_MISSING, never counted as free', async () => {
    const viewer = await makeUser(the.t.ctx, { domain: the.dom });
    await budgetFor(viewer.user.id, { costMicros: 1_000_000 });
    const s = await connect(viewer);
    s.send({ type: 'chat.send', requestId: rid(), chatId: null, content: 'Hello' });
    await s.next('error', (f) => f.code === 'PRICE_MISSING');
    expect(
      await the.t.ctx.db.select().from(usageEvents).where(eq(usageEvents.userId, viewer.user.id)),
    ).toEqual([]);
  });
});
