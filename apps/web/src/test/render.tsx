import { MantineProvider } from '@mantine/core';
import { type RenderOptions, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { theme } from '../app/theme.ts';
import { loadAllTexts, setLanguage } from '../lib/i18n/index.ts';

/** Loads a language's texts, every part of them (pt-BR by default), for component tests. */
export async function loadTestTexts(locale: 'pt-BR' | 'en' | 'es' = 'pt-BR'): Promise<void> {
  await setLanguage(locale);
  await loadAllTexts();
}

function TestProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} env="test">
      {children}
    </MantineProvider>
  );
}

export function renderWithProviders(ui: ReactElement, options?: RenderOptions) {
  return render(ui, { wrapper: TestProviders, ...options });
}
