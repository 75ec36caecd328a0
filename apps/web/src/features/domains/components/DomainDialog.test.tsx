import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { domain } from '../../../test/fixtures.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { DomainDialog } from './DomainDialog.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

let posted: FakeRequest[] = [];
let put: FakeRequest[] = [];

beforeEach(() => {
  posted = [];
  put = [];
  const services = installFakeServices();
  signInSession({ role: 'SuperAdmin' });
  routeHttp(services.accountHttp, {
    'POST /api/v1/domain': (options) => {
      posted.push(options);
      return { body: domain({ _id: 'nova.com.br', domain: 'nova.com.br', displayName: 'Nova' }) };
    },
    'PUT /api/v1/domain/nova.com.br': (options) => {
      put.push(options);
      return { body: domain({ _id: 'nova.com.br', domain: 'nova.com.br', displayName: 'Nova' }) };
    },
  });
});

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('DomainDialog', { timeout: 20_000 }, () => {
  it('refuses a CNPJ with wrong check digits, on leaving the field and on submit', async () => {
    renderFeature(
      <DomainDialog opened domain={null} ownDomain="acme.com" onClose={() => {}} onSaved={vi.fn()} />,
    );
    fill(/^Domínio( \*)?$/, 'nova.com.br');
    fill(/^Nome/, 'Nova');
    fill(/^CNPJ/, '11.222.333/0001-82');
    fireEvent.blur(screen.getByLabelText(/^CNPJ/));
    expect(await screen.findByText('CNPJ inválido: confira os dígitos verificadores.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findByText('CNPJ inválido: confira os dígitos verificadores.')).toBeTruthy();
    expect(posted).toHaveLength(0);
  });

  it('refuses a malformed domain name', async () => {
    renderFeature(
      <DomainDialog opened domain={null} ownDomain="acme.com" onClose={() => {}} onSaved={vi.fn()} />,
    );
    fill(/^Domínio( \*)?$/, 'not a domain');
    fill(/^Nome/, 'Nova');
    await userEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findByText(/Informe um nome de domínio válido/)).toBeTruthy();
    expect(posted).toHaveLength(0);
  });

  it('formats a valid alphanumeric CNPJ and creates the domain with the parsed body', async () => {
    const onSaved = vi.fn();
    renderFeature(
      <DomainDialog opened domain={null} ownDomain="acme.com" onClose={() => {}} onSaved={onSaved} />,
    );
    fill(/^Domínio( \*)?$/, ' Nova.COM.br ');
    fill(/^Nome/, 'Nova');
    fill(/^CNPJ/, '12abc34501de35');
    fireEvent.blur(screen.getByLabelText(/^CNPJ/));
    await waitFor(() =>
      expect((screen.getByLabelText(/^CNPJ/) as HTMLInputElement).value).toBe('12.ABC.345/01DE-35'),
    );
    await userEvent.click(screen.getByLabelText(/^Premium/));
    await userEvent.click(screen.getByRole('button', { name: 'Criar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(posted[0]?.body).toEqual({
      domain: 'nova.com.br',
      displayName: 'Nova',
      cnpj: '12ABC34501DE35',
      premium: true,
      isTrusted: true,
    });
  });

  it('edits without changing the DNS name; an empty CNPJ clears it', async () => {
    const onSaved = vi.fn();
    const existing = domain({
      _id: 'nova.com.br',
      domain: 'nova.com.br',
      displayName: 'Nova',
      cnpj: '11222333000181',
    });
    renderFeature(
      <DomainDialog opened domain={existing} ownDomain="acme.com" onClose={() => {}} onSaved={onSaved} />,
    );
    await waitFor(() =>
      expect((screen.getByLabelText(/^CNPJ/) as HTMLInputElement).value).toBe('11.222.333/0001-81'),
    );
    expect((screen.getByLabelText(/^Domínio( \*)?$/) as HTMLInputElement).disabled).toBe(true);
    fill(/^CNPJ/, '');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(put[0]?.body).toEqual({
      displayName: 'Nova',
      cnpj: null,
      premium: false,
      isTrusted: true,
      active: true,
    });
  });
});
