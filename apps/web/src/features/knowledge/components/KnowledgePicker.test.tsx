import type { KnowledgeSourceChoice } from '@assistente/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { KnowledgePicker } from './KnowledgePicker.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => resetSession());

function renderPicker(choices: KnowledgeSourceChoice[]) {
  const services = installFakeServices();
  signInSession({}, true);
  const get = vi.fn(async (_path: string, _options?: FakeRequest) => choices);
  Object.assign(services.accountHttp, { get });
  renderFeature(<KnowledgePicker value={[]} onChange={() => {}} />);
  return screen.getByLabelText('Conhecimento', { selector: 'input' });
}

describe('KnowledgePicker', () => {
  it('says a search matches no source, not that the domain has none', async () => {
    const field = renderPicker([{ sourceId: 'ks1', kind: 'files', displayName: 'Manual', documents: 2 }]);
    await userEvent.click(field);
    expect(await screen.findByRole('option', { name: /Manual/ })).toBeTruthy();
    await userEvent.type(field, 'férias');
    expect(await screen.findByText('Nenhuma fonte corresponde a “férias”')).toBeTruthy();
    expect(screen.queryByText('Nenhuma fonte de conhecimento no seu domínio')).toBeNull();
  });

  it('says so when the domain has no source at all', async () => {
    const field = renderPicker([]);
    await userEvent.click(field);
    expect(await screen.findByText('Nenhuma fonte de conhecimento no seu domínio')).toBeTruthy();
  });
});
