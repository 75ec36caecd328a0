import type { User } from '@assistente/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { department, user } from '../../test/fixtures.ts';
import { loadTestTexts } from '../../test/render.tsx';
import { renderFeature } from '../../test/renderFeature.tsx';
import UsersPage from './UsersPage.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 10_000 };

/** The users service over one person whose hold is kept here. */
function setup(role: User['role'], bia: User) {
  const services = installFakeServices();
  signInSession({ role });
  const holds: Array<{ id: string; hold: boolean }> = [];
  let current = bia;
  routeHttp(services.accountHttp, {
    'GET /api/v1/department': () => ({ body: [department()] }),
    'GET /api/v1/domain': () => ({ body: [] }),
    'GET /api/v1/user': () => ({ body: [current], headers: { 'X-Total-Count': '1' } }),
    [`PUT /api/v1/user/${encodeURIComponent(bia._id)}/legal_hold`]: (request) => {
      const { hold } = request.body as { hold: boolean };
      holds.push({ id: bia._id, hold });
      current = { ...current, legalHold: hold };
      return { body: { userId: bia._id, hold } };
    },
  });
  renderFeature(<UsersPage />, { path: '/users' });
  return { holds };
}

const bia = user({ _id: 'bia@acme.com', email: 'bia@acme.com', displayName: 'Bia Lima', legalHold: false });

describe('Legal hold in the users admin', { timeout: 30_000 }, () => {
  it('an Admin places a person under legal hold after confirming, and the row shows the badge', async () => {
    const { holds } = setup('Admin', bia);
    await screen.findByText('Bia Lima', {}, WAIT);
    expect(screen.queryByTestId('legal-hold-badge')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Ações de Bia Lima' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Colocar em retenção legal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Colocar em retenção legal?' }, WAIT);
    expect(dialog.textContent).toContain('nada de Bia Lima (bia@acme.com) é excluído');
    expect(holds).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Colocar em retenção' }));
    await waitFor(() => expect(holds).toEqual([{ id: 'bia@acme.com', hold: true }]), WAIT);
    expect((await screen.findByTestId('legal-hold-badge', {}, WAIT)).textContent).toBe('Retenção legal');

    // Released the same way: the menu offers the other direction.
    await userEvent.click(screen.getByRole('button', { name: 'Ações de Bia Lima' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Encerrar a retenção legal' }));
    const release = await screen.findByRole('dialog', { name: 'Encerrar a retenção legal?' }, WAIT);
    await userEvent.click(within(release).getByRole('button', { name: 'Encerrar retenção' }));
    await waitFor(() => expect(holds.at(-1)).toEqual({ id: 'bia@acme.com', hold: false }), WAIT);
    await waitFor(() => expect(screen.queryByTestId('legal-hold-badge')).toBeNull(), WAIT);
  });

  it('offers no legal hold on one’s own row', async () => {
    setup('Admin', user({ legalHold: false }));
    await screen.findByText('Ana Souza', {}, WAIT);
    await userEvent.click(screen.getByRole('button', { name: 'Ações de Ana Souza' }));
    await screen.findByRole('menuitem', { name: 'Editar' }, WAIT);
    expect(screen.queryByRole('menuitem', { name: 'Colocar em retenção legal' })).toBeNull();
  });
});
