import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { loadTestTexts, renderWithProviders } from '../../test/render.tsx';
import { setUi, uiStore } from '../../ui/uiStore.ts';
import { DefaultShell } from './DefaultLayout.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => {
  resetSession();
  setUi({ mainSidebarModel: false });
});

function renderShell(path = '/') {
  installFakeServices();
  signInSession();
  renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <DefaultShell>
        <p>Página</p>
      </DefaultShell>
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: 'Abrir menu' });
}

const drawerOpen = () => uiStore.getState().mainSidebarModel;

describe('DefaultShell navigation drawer', () => {
  it('says on the burger whether the drawer is open, and which element it controls', async () => {
    const burger = renderShell();
    expect(burger.getAttribute('aria-expanded')).toBe('false');
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' });
    const controlled = document.getElementById(burger.getAttribute('aria-controls') ?? '');
    expect(controlled?.contains(nav)).toBe(true);
    await userEvent.click(burger);
    expect(drawerOpen()).toBe(true);
    expect(screen.getByRole('button', { name: 'Fechar menu' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('closes with Escape and gives the focus back to the burger', async () => {
    const burger = renderShell();
    await userEvent.click(burger);
    screen.getByRole('link', { name: 'Conversas' }).focus();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(drawerOpen()).toBe(false);
    expect(document.activeElement).toBe(burger);
  });

  it('closes when the link of the page already shown is tapped', async () => {
    const burger = renderShell('/chats');
    await userEvent.click(burger);
    const current = screen.getByRole('link', { name: 'Conversas' });
    expect(current.getAttribute('aria-current')).toBe('page');
    await userEvent.click(current);
    expect(drawerOpen()).toBe(false);
  });
});

describe('DefaultShell focus', () => {
  it('opens with a skip link to the page’s content', () => {
    renderShell();
    const skip = screen.getByRole('link', { name: 'Pular para o conteúdo' });
    const main = screen.getByRole('main');
    expect(skip.getAttribute('href')).toBe(`#${main.id}`);
    // The first thing a keyboard reaches.
    const focusable = document.querySelectorAll('a[href], button, input, [tabindex="0"]');
    expect(focusable[0]).toBe(skip);
  });

  it('moves the focus to the content when the page changes, not to the document', async () => {
    renderShell('/chats');
    const main = screen.getByRole('main');
    const settings = screen.getByRole('link', { name: 'Configurações' });
    settings.focus();
    await userEvent.click(settings);
    expect(document.activeElement).toBe(main);
  });
});
