import { act, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type I18n, setLanguage, useTranslation } from './index.ts';

// As on the auth pages: the shell's texts and theirs.
beforeAll(async () => {
  await setLanguage('pt-BR', ['auth']);
});
afterAll(async () => {
  await setLanguage('pt-BR');
});

function Probe({ onRender }: { onRender: () => void }) {
  const { t, i18n } = useTranslation();
  onRender();
  return (
    <p data-testid="probe" data-language={i18n.language}>
      {t('auth_layout.footer', { year: '<2026>' })} · {t('pages_login.submit')}
    </p>
  );
}

function Greeting() {
  const { t } = useTranslation();
  return <p data-testid="greeting">{t('pages.home.greeting', { name: 'Ana' })}</p>;
}

let switcher: I18n | null = null;
function Switcher() {
  const { t, i18n } = useTranslation();
  switcher = i18n;
  return <span data-testid="label">{t('locale.label')}</span>;
}

describe('useTranslation', () => {
  it('renders the current texts and re-renders on a language change', async () => {
    const onRender = vi.fn();
    render(<Probe onRender={onRender} />);
    const probe = screen.getByTestId('probe');
    expect(probe.textContent).toBe('© <2026> Assistente · Entrar');
    expect(probe.dataset.language).toBe('pt-BR');
    expect(document.documentElement.lang).toBe('pt-BR');

    const renders = onRender.mock.calls.length;
    await act(() => setLanguage('en'));
    expect(probe.textContent).toBe('© <2026> Assistente · Sign in');
    expect(probe.dataset.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(onRender.mock.calls.length).toBeGreaterThan(renders);
  });

  it('shows a text of a part not loaded yet once that part arrives', async () => {
    await act(() => setLanguage('pt-BR'));
    render(<Greeting />);
    await waitFor(() => expect(screen.getByTestId('greeting').textContent).toBe('Olá, Ana'));
  });

  it('switches through i18n.changeLanguage too', async () => {
    render(<Switcher />);
    await act(() => switcher?.changeLanguage('en') ?? Promise.resolve());
    expect(screen.getByTestId('label').textContent).toBe('Language');
    await act(() => switcher?.changeLanguage('es') ?? Promise.resolve());
    expect(screen.getByTestId('label').textContent).toBe('Idioma');
    expect(document.documentElement.lang).toBe('es');
  });

  it('rejects a language it has no texts for', async () => {
    await expect(setLanguage('fr')).rejects.toThrow('No texts for locale fr');
  });
});
