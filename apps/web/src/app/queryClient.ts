import { QueryClient } from '@tanstack/react-query';

/** One cache for every signed-in page (its own chunk: the auth pages do not need it). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: false },
    // Offline, a save fails at once and says so: TanStack's default ('online') paused it, and its
    // button spun with no notice until the network came back.
    mutations: { networkMode: 'always' },
  },
});
