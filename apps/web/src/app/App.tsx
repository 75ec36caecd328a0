import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router/dom';
import type { AppRouter } from './router/router.ts';
import { theme } from './theme.ts';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} forceColorScheme="light">
      {children}
    </MantineProvider>
  );
}

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
