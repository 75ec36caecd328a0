import { challengeFor, createState, createVerifier, sameState } from './pkce.ts';

/** How long a browser sign-in may take before its callback is refused (the server's code lives 60 s). */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface PendingSignIn {
  state: string;
  verifier: string;
  challenge: string;
  startedAt: number;
}

export type CallbackResult =
  | { ok: true; code: string; verifier: string }
  | { ok: false; reason: 'no-sign-in' | 'state-mismatch' | 'expired' | 'missing-code' | 'denied' };

/**
 * The one sign-in in progress: its PKCE verifier and `state`. A new sign-in replaces the old one, and a
 * callback is accepted once, only with the state this sign-in sent.
 */
export class PendingSignIns {
  private current: PendingSignIn | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  start(): PendingSignIn {
    const verifier = createVerifier();
    this.current = {
      state: createState(),
      verifier,
      challenge: challengeFor(verifier),
      startedAt: this.now(),
    };
    return this.current;
  }

  cancel(): void {
    this.current = null;
  }

  /** Checks a callback's query (`code`, `state`, or `error`) against the sign-in in progress. */
  complete(query: URLSearchParams): CallbackResult {
    const pending = this.current;
    if (!pending) return { ok: false, reason: 'no-sign-in' };
    const state = query.get('state') ?? '';
    // A callback with another state is someone else's (or forged): it leaves this sign-in waiting.
    if (!sameState(state, pending.state)) return { ok: false, reason: 'state-mismatch' };
    this.current = null;
    if (this.now() - pending.startedAt > SIGN_IN_TIMEOUT_MS) return { ok: false, reason: 'expired' };
    if (query.get('error')) return { ok: false, reason: 'denied' };
    const code = query.get('code');
    if (!code) return { ok: false, reason: 'missing-code' };
    return { ok: true, code, verifier: pending.verifier };
  }
}
