import type { ModelInfo, ModelList } from '@assistente/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import ParamsPanel from './ParamsPanel.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

function model(name: string): ModelInfo {
  return {
    id: `openai:${name}`,
    name,
    provider: 'openai',
    providerLabel: 'OpenAI',
    kind: 'openai',
    source: 'instance',
  };
}

function renderPanel(list: ModelList) {
  const services = installFakeServices();
  signInSession();
  const get = vi.fn(async (_path: string, _options?: FakeRequest) => list);
  Object.assign(services.chatsHttp, { get });
  renderFeature(<ParamsPanel chatId={null} params={{}} onClose={() => {}} />);
}

describe('ParamsPanel', () => {
  it('names the default model by its own name, with the explanation on the line below the label', async () => {
    renderPanel({
      models: [model('fixture-small'), model('fixture-large')],
      defaultModel: 'openai:fixture-small',
    });
    const field = screen.getByRole('combobox', { name: 'Modelo' });
    await waitFor(() => expect(field.getAttribute('placeholder')).toBe('fixture-small (padrão)'));
    expect(screen.getByText('Sem escolha, a conversa usa o modelo padrão do domínio.')).toBeTruthy();
  });

  it('falls back to the model’s name, never a provider id, for a default model not in the list', async () => {
    renderPanel({ models: [model('fixture-large')], defaultModel: 'p4088f0b7e819:retired' });
    const field = screen.getByRole('combobox', { name: 'Modelo' });
    await waitFor(() => expect(field.getAttribute('placeholder')).toBe('retired (padrão)'));
  });
});
