import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { department, user } from '../../../test/fixtures.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { InviteUserDialog } from './InviteUserDialog.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

let posted: FakeRequest[] = [];
let conflict = false;

beforeEach(() => {
  posted = [];
  conflict = false;
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  routeHttp(services.accountHttp, {
    'GET /api/v1/department': () => ({
      body: [
        department({ _id: 'old', displayName: 'Antigo', active: false }),
        department(),
        department({ _id: 'dep-2', displayName: 'Vendas' }),
      ],
    }),
    'POST /api/v1/user': (options) => {
      posted.push(options);
      if (conflict)
        return { status: 409, code: 'CONFLICT', message: 'A user with this email already exists' };
      return { body: { ...user({ _id: 'new@acme.com', email: 'new@acme.com' }), invitationSent: true } };
    },
  });
});

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const departmentValue = () => (screen.getByLabelText(/^Departamento/) as HTMLSelectElement).value;

function renderDialog(onCreated = vi.fn()) {
  renderFeature(
    <InviteUserDialog
      opened
      onClose={() => {}}
      onCreated={onCreated}
      callerDomain="acme.com"
      chooseDomain={false}
      roles={['Viewer', 'Editor', 'Admin']}
    />,
  );
  return onCreated;
}

// Mantine dialogs render slowly in jsdom on a busy machine.
describe('InviteUserDialog', { timeout: 20_000 }, () => {
  it('shows the shared schema’s field errors and calls nothing', async () => {
    renderDialog();
    fill(/^E-mail/, 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar convite' }));
    expect(await screen.findByText('Informe um e-mail válido.')).toBeTruthy();
    expect(screen.getByText('Preencha este campo.')).toBeTruthy();
    expect(posted).toHaveLength(0);
  });

  it('offers an Admin roles up to Admin only', async () => {
    renderDialog();
    const role = screen.getByLabelText(/^Papel/) as HTMLSelectElement;
    expect([...role.options].map((option) => option.textContent)).toEqual([
      'Leitor',
      'Editor',
      'Administrador',
    ]);
  });

  it('preselects the first active department and posts the validated body with the language', async () => {
    const onCreated = renderDialog();
    await waitFor(() => expect(departmentValue()).toBe('dep-1'), { timeout: 4000 });
    fill(/^E-mail/, 'New@Acme.com');
    fill(/^Nome/, '  Nina Nova ');
    // Enter submits.
    await userEvent.type(screen.getByLabelText(/^Nome/), '{Enter}');
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(posted[0]?.body).toEqual({
      email: 'New@Acme.com',
      displayName: 'Nina Nova',
      domain: 'acme.com',
      department: 'dep-1',
      role: 'Viewer',
    });
    expect(posted[0]?.query).toEqual({ locale: 'pt-BR' });
  });

  it('shows a taken email on the email field', async () => {
    conflict = true;
    const onCreated = renderDialog();
    await waitFor(() => expect(departmentValue()).toBe('dep-1'), { timeout: 4000 });
    fill(/^E-mail/, 'ana@acme.com');
    fill(/^Nome/, 'Ana');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar convite' }));
    expect(await screen.findByText('Já existe um usuário com este e-mail.')).toBeTruthy();
    expect(onCreated).not.toHaveBeenCalled();
  });
});
