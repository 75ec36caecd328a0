import { Center, Loader } from '@mantine/core';

/** The large centred spinner shown while auth or the first route is loading (docs/ARCHITECTURE.md#shell-routes-and-guards). */
export function FullPageSpinner({ label = 'Carregando…' }: { label?: string }) {
  return (
    <Center mih="100dvh" role="progressbar" aria-busy="true" aria-label={label} data-testid="app-spinner">
      <Loader size={56} type="oval" />
    </Center>
  );
}
