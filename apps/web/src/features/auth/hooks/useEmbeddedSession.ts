import { useStore } from '@mantine/store';
import { type EmbeddedSession, embeddedSession } from '../session.ts';

/** The embedded session (separate from the account session). */
export function useEmbeddedSession(): EmbeddedSession {
  return useStore(embeddedSession);
}
