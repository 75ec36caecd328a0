import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeHttp } from '../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { department } from '../../test/fixtures.ts';
import { loadTestTexts } from '../../test/render.tsx';
import { renderFeature } from '../../test/renderFeature.tsx';
import DepartmentsPage from './DepartmentsPage.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const WAIT = { timeout: 5000 };

function setup() {
  const deleted: string[] = [];
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  routeHttp(services.accountHttp, {
    'GET /api/v1/department': () => ({
      body: [department(), department({ _id: 'dep-2', displayName: 'Vendas' })],
      headers: { 'X-Total-Count': '2' },
    }),
    'DELETE /api/v1/department/dep-1': () => ({
      status: 409,
      code: 'CONFLICT',
      message: 'The department “Geral” still has 3 users: move them to another department first',
      details: { users: 3 },
    }),
    'DELETE /api/v1/department/dep-2': () => {
      deleted.push('dep-2');
      return { body: undefined };
    },
  });
  renderFeature(<DepartmentsPage />, { path: '/departments' });
  return { deleted };
}

async function askDelete(name: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Ações de ${name}` }, WAIT));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
  const dialog = await screen.findByRole('dialog', { name: 'Excluir departamento?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
  return dialog;
}

describe('DepartmentsPage', { timeout: 20_000 }, () => {
  it('explains a refused delete of a department that still has users, in the dialog', async () => {
    const { deleted } = setup();
    const dialog = await askDelete('Geral');
    expect(
      await within(dialog).findByText(
        'Geral ainda tem usuários (3). Mova-os para outro departamento antes de excluí-lo.',
      ),
    ).toBeTruthy();
    expect(deleted).toEqual([]);
  });

  it('deletes an empty department after confirmation', async () => {
    const { deleted } = setup();
    await askDelete('Vendas');
    await waitFor(() => expect(deleted).toEqual(['dep-2']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
