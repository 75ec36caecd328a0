import type { UsageRow } from '@assistente/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRequest, routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { SpendTab } from './SpendTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 5000 };

const row = (key: string, label: string, costMicros: number, unpricedCalls = 0): UsageRow => ({
  key,
  label,
  calls: 3,
  inputTokens: 1200,
  outputTokens: 300,
  costMicros,
  unpricedCalls,
});

function setup(answer: (groupBy: string) => UsageRow[] | 'fail') {
  const asked: FakeRequest['query'][] = [];
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  routeHttp(services.accountHttp, {
    'GET /api/v1/usage/summary': ({ query }) => {
      asked.push(query);
      const rows = answer(query.groupBy ?? '');
      if (rows === 'fail') return { status: 500, code: 'INTERNAL', message: 'boom' };
      const total = rows.reduce(
        (t, r) => ({
          calls: t.calls + r.calls,
          inputTokens: t.inputTokens + r.inputTokens,
          outputTokens: t.outputTokens + r.outputTokens,
          costMicros: t.costMicros + r.costMicros,
          unpricedCalls: t.unpricedCalls + r.unpricedCalls,
        }),
        { calls: 0, inputTokens: 0, outputTokens: 0, costMicros: 0, unpricedCalls: 0 },
      );
      return { body: { rows, total } };
    },
  });
  renderFeature(<SpendTab domain="acme.test" />, { path: '/usage' });
  return { asked };
}

describe('SpendTab', { timeout: 20_000 }, () => {
  it('shows the totals, says how many calls had no price, and lists models by cost', async () => {
    const { asked } = setup((groupBy) =>
      groupBy === 'day'
        ? [row('2026-03-02', '2026-03-02', 1_500_000, 2)]
        : [row('openai:mini', 'openai:mini', 250_000), row('openai:big', 'openai:big', 1_250_000, 2)],
    );
    expect((await screen.findByTestId('usage-total-cost', {}, WAIT)).textContent).toMatch(/US\$\s1,50/);
    expect(screen.getByTestId('usage-unpriced').textContent).toBe('2 chamadas sem preço não estão no custo');
    const rows = await screen.findAllByTestId('usage-row', {}, WAIT);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('openai:big'),
      expect.stringContaining('openai:mini'),
    ]);
    expect(asked[0]).toMatchObject({ groupBy: 'day', domain: 'acme.test' });
    expect(asked[0]?.from).toMatch(/^\d{4}-\d{2}-01$/);
  });

  it('says when the range has no usage', async () => {
    setup(() => []);
    expect(await screen.findByText('Nenhum uso neste período', {}, WAIT)).toBeTruthy();
    expect(screen.queryByTestId('usage-totals')).toBeNull();
  });

  it('shows a failed load with a retry', async () => {
    setup(() => 'fail');
    expect(await screen.findByTestId('load-error', {}, WAIT)).toBeTruthy();
  });

  it('does not ask for a range the server would refuse', async () => {
    const { asked } = setup(() => []);
    await screen.findByText('Nenhum uso neste período', {}, WAIT);
    const before = asked.length;
    await userEvent.click(screen.getByTestId('usage-range'));
    await userEvent.click(await screen.findByRole('option', { name: 'Período personalizado' }));
    const from = screen.getByTestId('usage-from');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-03-10');
    const to = screen.getByTestId('usage-to');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-03-01');
    expect((await screen.findByTestId('usage-range-problem')).textContent).toBe(
      'A data inicial não pode ser depois da final.',
    );
    await waitFor(() =>
      expect(asked.slice(before).some((q) => q.from === '2026-03-10' && q.to === '2026-03-01')).toBe(false),
    );
  });
});
