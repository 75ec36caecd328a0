import type { User } from '@assistente/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest } from '../../test/fakeHttp.ts';
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

const WAIT = { timeout: 5000 };
const bia = user({ _id: 'bia@acme.com', email: 'bia@acme.com', displayName: 'Bia Lima' });
const caio = user({ _id: 'caio@acme.com', email: 'caio@acme.com', displayName: 'Caio Reis', role: 'Editor' });

function setup(role: User['role'] = 'Admin') {
  const lists: FakeRequest[] = [];
  const services = installFakeServices();
  signInSession({ role });
  routeHttp(services.accountHttp, {
    'GET /api/v1/department': () => ({ body: [department()] }),
    'GET /api/v1/domain': () => ({ body: [] }),
    'GET /api/v1/user': (options) => {
      lists.push(options);
      const cursor = options.query?.cursor;
      return cursor
        ? { body: [caio], headers: { 'X-Total-Count': '2' } }
        : { body: [bia], headers: { 'X-Total-Count': '2', 'X-Next-Cursor': 'next-1' } };
    },
  });
  renderFeature(<UsersPage />, { path: '/users' });
  return { lists, services };
}

describe('UsersPage', { timeout: 20_000 }, () => {
  it('pages with the cursor of X-Next-Cursor and shows the total', async () => {
    const { lists } = setup();
    expect(await screen.findByText('Bia Lima', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Mostrando 1 de 2')).toBeTruthy();
    expect(screen.getByText('Geral')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }));
    expect(await screen.findByText('Caio Reis', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Mostrando 2 de 2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).toBeNull();
    expect(lists[1]?.query).toMatchObject({ cursor: 'next-1', sort: 'displayName', order: 'asc' });
  });

  it('searches on the server after a pause in typing, and sorts by a column', async () => {
    const { lists } = setup();
    await screen.findByText('Bia Lima', {}, WAIT);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'bia' } });
    await waitFor(() => expect(lists.some((l) => l.query?.q === 'bia')).toBe(true), WAIT);
    await userEvent.click(screen.getByRole('button', { name: /^E-mail/ }));
    await waitFor(
      () => expect(lists.some((l) => l.query?.sort === 'email' && l.query?.order === 'asc')).toBe(true),
      WAIT,
    );
  });

  it('lists every domain for a SuperAdmin (no domain filter sent)', async () => {
    const { lists } = setup('SuperAdmin');
    await screen.findByText('Bia Lima', {}, WAIT);
    expect(lists[0]?.query?.domain).toBeUndefined();
    expect(screen.getByRole('columnheader', { name: 'Domínio' })).toBeTruthy();
  });

  it('deactivates a user after confirmation, with the full record', async () => {
    const { services } = setup();
    await screen.findByText('Bia Lima', {}, WAIT);
    await userEvent.click(screen.getByRole('button', { name: 'Ações de Bia Lima' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Desativar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desativar usuário?' });
    expect(services.accountApi.updateUser).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Desativar' }));
    await waitFor(() =>
      expect(services.accountApi.updateUser).toHaveBeenCalledWith({ ...bia, active: false }),
    );
  });
});
