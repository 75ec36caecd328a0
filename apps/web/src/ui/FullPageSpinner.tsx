import { Center, Loader } from '@mantine/core';

/** The large centred spinner shown while auth or the first route is loading (spec §2). */
export function FullPageSpinner({ label = 'Carregando…' }: { label?: string }) {
  return (
    <Center mih="100dvh" role="progressbar" aria-busy="true" aria-label={label} data-testid="app-spinner">
      <Loader size={56} type="oval" />
    </Center>
  );
}
