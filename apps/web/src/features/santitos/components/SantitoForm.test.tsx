import type { ModelList } from '@assistente/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { santito as santitoOf } from '../../../test/fixtures.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import SantitoForm from './SantitoForm.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

const models: ModelList = {
  models: [
    {
      id: 'p4088f0b7e819:qa-fast',
      name: 'qa-fast',
      provider: 'p4088f0b7e819',
      providerLabel: 'Servidor da equipe',
      kind: 'openai-compatible',
      source: 'domain',
    },
  ],
  defaultModel: 'p4088f0b7e819:qa-fast',
};

const santito = (model: string | null) => santitoOf({ instructions: 'Traduza.', model });

function renderForm(model: string | null) {
  const services = installFakeServices();
  signInSession({}, true);
  const get = vi.fn(async (_path: string, _options?: FakeRequest) => models);
  Object.assign(services.chatsHttp, { get });
  renderFeature(<SantitoForm santito={santito(model)} onDone={() => {}} onCancel={() => {}} />);
}

describe('SantitoForm, the model', () => {
  it('names each model by its provider’s name and its own, never the provider’s id', async () => {
    renderForm('p4088f0b7e819:qa-fast');
    const field = screen.getByRole('combobox', { name: 'Modelo' });
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('Servidor da equipe · qa-fast'));
    await userEvent.click(field);
    expect(await screen.findByRole('option', { name: 'Servidor da equipe · qa-fast' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('p4088f0b7e819');
  });

  it('names a model whose provider is gone by the model alone', async () => {
    renderForm('p0ld00000000:retired');
    const field = screen.getByRole('combobox', { name: 'Modelo' });
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('retired'));
    expect(document.body.textContent).not.toContain('p0ld00000000');
  });
});

describe('SantitoForm, tools', () => {
  it('saves the tools picked, built-in and MCP, and the steps an answer may take', async () => {
    const services = installFakeServices();
    signInSession({}, true);
    Object.assign(services.chatsHttp, { get: vi.fn(async () => models) });
    const saved = santitoOf({ tools: ['builtin:web_search', 'mcp:s1:*'], maxSteps: 4 });
    const put = vi.fn(async (_path: string, _options?: FakeRequest) => saved);
    const get = vi.fn(async () => ({
      tools: [
        {
          ref: 'mcp:s1:find_ticket',
          serverId: 's1',
          serverName: 'Chamados',
          name: 'find_ticket',
          title: null,
          description: null,
          readOnly: true,
          decision: 'allow',
        },
      ],
      builtins: [
        {
          ref: 'builtin:web_search',
          name: 'web_search',
          readOnly: true,
          decision: 'allow',
          unavailable: null,
        },
      ],
      userServers: false,
    }));
    Object.assign(services.accountHttp, { get, put });
    const onDone = vi.fn();
    renderFeature(<SantitoForm santito={santitoOf()} onDone={onDone} onCancel={() => {}} />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Pesquisa na web' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Todas as ferramentas de Chamados' }));
    const steps = screen.getByRole('textbox', { name: 'Máximo de passos' });
    fireEvent.change(steps, { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(put.mock.calls[0]?.[0]).toBe('/api/v1/agent/santito-1');
    expect(put.mock.calls[0]?.[1]?.body).toMatchObject({
      tools: ['builtin:web_search', 'mcp:s1:*'],
      maxSteps: 4,
    });
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(saved));
  });
});
