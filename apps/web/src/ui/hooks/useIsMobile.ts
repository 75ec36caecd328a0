import { useMediaQuery } from '@mantine/hooks';

/** Below the md breakpoint (960 px, docs/ARCHITECTURE.md#shell-routes-and-guards): lists become cards, dialogs full-screen. */
export function useIsMobile(): boolean {
  return useMediaQuery('(max-width: 59.99em)', false, { getInitialValueInEffect: false }) ?? false;
}
