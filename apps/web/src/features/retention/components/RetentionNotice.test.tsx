import type { MyRetention } from '@assistente/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { RetentionNotice } from './RetentionNotice.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 10_000 };

/** The caller's rule as the server answers it; counts the requests. */
function serve(mine: MyRetention | { status: number; code: string; message: string }, copies = 1) {
  const services = installFakeServices();
  signInSession();
  let asked = 0;
  routeHttp(services.accountHttp, {
    'GET /api/v1/me/retention': () => {
      asked += 1;
      return 'status' in mine ? mine : { body: mine };
    },
  });
  renderFeature(
    <div>
      {Array.from({ length: copies }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical copies, as several lists mounting at once
        <RetentionNotice key={i} />
      ))}
    </div>,
  );
  return { asked: () => asked };
}

describe('RetentionNotice', { timeout: 20_000 }, () => {
  it('says how long the caller’s chats are kept, once however many lists show it', async () => {
    const { asked } = serve({ chatsDays: 90, filesDays: 30, exemptPinned: false }, 3);
    const notices = await screen.findAllByTestId('retention-notice', {}, WAIT);
    expect(notices.map((n) => n.textContent)).toEqual(
      Array(3).fill('As conversas são excluídas 90 dias após a última mensagem'),
    );
    expect(asked()).toBe(1);
  });

  it('adds that pinned chats are kept when the rule exempts them', async () => {
    serve({ chatsDays: 1, filesDays: null, exemptPinned: true });
    expect((await screen.findByTestId('retention-notice', {}, WAIT)).textContent).toBe(
      'As conversas são excluídas 1 dia após a última mensagem; fixadas são mantidas',
    );
  });

  it('shows nothing when chats are kept forever, or when the rule cannot be read', async () => {
    const kept = serve({ chatsDays: null, filesDays: 30, exemptPinned: true });
    await waitFor(() => expect(kept.asked()).toBe(1), WAIT);
    expect(screen.queryByTestId('retention-notice')).toBeNull();
    resetSession();
    const failed = serve({ status: 500, code: 'INTERNAL', message: 'boom' });
    await waitFor(() => expect(failed.asked()).toBeGreaterThan(0), WAIT);
    expect(screen.queryByTestId('retention-notice')).toBeNull();
  });
});
