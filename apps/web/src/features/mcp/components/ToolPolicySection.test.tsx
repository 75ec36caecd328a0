import type { ToolPolicy } from '@assistente/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http/errors.ts';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { ToolPolicySection } from './ToolPolicySection.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const policy: ToolPolicy = {
  domain: 'acme.com',
  rules: [
    { match: 'mcp:*', decision: 'ask' },
    { match: 'mcp:s1:delete_*', decision: 'deny' },
  ],
  userServers: false,
};

function setup(put: (path: string, options?: FakeRequest) => Promise<unknown>) {
  const services = installFakeServices();
  signInSession({ role: 'Admin' });
  const get = vi.fn(async (_path: string, _options?: FakeRequest) => policy);
  const putMock = vi.fn(put);
  Object.assign(services.accountHttp, { get, put: putMock });
  renderFeature(<ToolPolicySection />);
  return { get, put: putMock };
}

describe('ToolPolicySection', { timeout: 30_000 }, () => {
  it('edits the rules and the switch, and saves them', async () => {
    const { get, put } = setup(async (_path, options) => ({
      domain: 'acme.com',
      ...(options?.body as object),
    }));
    const first = await screen.findByRole('textbox', { name: 'Regra 1: Ferramentas' }, { timeout: 10_000 });
    expect(get).toHaveBeenCalledWith('/api/v1/settings/tools', expect.anything());
    expect((first as HTMLInputElement).value).toBe('mcp:*');
    // The first rule now allows the read-only finder, the second is removed, a third is added.
    fireEvent.change(first, { target: { value: 'mcp:s1:find_*' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Regra 1: Decisão' }), {
      target: { value: 'allow' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remover regra 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar regra' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Regra 2: Ferramentas' }), {
      target: { value: 'builtin:web_search' },
    });
    fireEvent.click(
      screen.getByRole('checkbox', { name: 'Pessoas podem adicionar seus próprios servidores MCP' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[0]).toBe('/api/v1/settings/tools');
    expect(put.mock.calls[0]?.[1]?.body).toEqual({
      rules: [
        { match: 'mcp:s1:find_*', decision: 'allow' },
        { match: 'builtin:web_search', decision: 'ask' },
      ],
      userServers: true,
    });
    expect(await screen.findByText('Política salva.')).toBeTruthy();
  });

  it('does not send a rule that matches no tool reference', async () => {
    const { put } = setup(async () => policy);
    const first = await screen.findByRole('textbox', { name: 'Regra 1: Ferramentas' }, { timeout: 10_000 });
    fireEvent.change(first, { target: { value: 'delete everything' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect(
      await screen.findByText(
        'Use uma referência como mcp:{servidor}:{ferramenta}, com * para qualquer parte.',
      ),
    ).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
  });

  it('shows why the server refused the policy', async () => {
    setup(async () => {
      throw new HttpError({
        url: '/api/v1/settings/tools',
        method: 'PUT',
        status: 403,
        data: { error: { code: 'FORBIDDEN', message: 'Forbidden', status: 403 } },
      });
    });
    await screen.findByRole('textbox', { name: 'Regra 1: Ferramentas' }, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar política' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Você não tem permissão para fazer isso.');
  });
});
