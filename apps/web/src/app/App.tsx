import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './AppProviders.tsx';
import type { AppRouter } from './router/router.ts';

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
