import { describe, expect, it } from 'vitest';
import { PendingSignIns, SIGN_IN_TIMEOUT_MS } from './pending.ts';
import { challengeFor } from './pkce.ts';

const query = (o: Record<string, string>) => new URLSearchParams(o);

describe('a sign-in in progress', () => {
  it('accepts the callback carrying its state once, with the verifier of its challenge', () => {
    const pending = new PendingSignIns();
    const sign = pending.start();
    expect(challengeFor(sign.verifier)).toBe(sign.challenge);
    expect(pending.complete(query({ code: 'c1', state: sign.state }))).toEqual({
      ok: true,
      code: 'c1',
      verifier: sign.verifier,
    });
    // The same callback again (a replayed link) finds no sign-in waiting.
    expect(pending.complete(query({ code: 'c1', state: sign.state }))).toEqual({
      ok: false,
      reason: 'no-sign-in',
    });
  });

  it('refuses a callback with another state and keeps waiting for its own', () => {
    const pending = new PendingSignIns();
    const sign = pending.start();
    expect(pending.complete(query({ code: 'evil', state: 'forged' }))).toEqual({
      ok: false,
      reason: 'state-mismatch',
    });
    expect(pending.complete(query({ code: 'evil' }))).toEqual({ ok: false, reason: 'state-mismatch' });
    expect(pending.complete(query({ code: 'good', state: sign.state }))).toMatchObject({
      ok: true,
      code: 'good',
    });
  });

  it('forgets an older sign-in when a new one starts', () => {
    const pending = new PendingSignIns();
    const first = pending.start();
    const second = pending.start();
    expect(pending.complete(query({ code: 'c', state: first.state }))).toEqual({
      ok: false,
      reason: 'state-mismatch',
    });
    expect(pending.complete(query({ code: 'c', state: second.state }))).toMatchObject({ ok: true });
  });

  it('refuses a callback after the sign-in timed out, without a code, or refused', () => {
    let now = 1_000;
    const pending = new PendingSignIns(() => now);
    let sign = pending.start();
    now += SIGN_IN_TIMEOUT_MS + 1;
    expect(pending.complete(query({ code: 'c', state: sign.state }))).toEqual({
      ok: false,
      reason: 'expired',
    });
    sign = pending.start();
    expect(pending.complete(query({ state: sign.state }))).toEqual({ ok: false, reason: 'missing-code' });
    sign = pending.start();
    expect(pending.complete(query({ state: sign.state, error: 'access_denied' }))).toEqual({
      ok: false,
      reason: 'denied',
    });
  });

  it('accepts nothing once cancelled', () => {
    const pending = new PendingSignIns();
    const sign = pending.start();
    pending.cancel();
    expect(pending.complete(query({ code: 'c', state: sign.state }))).toEqual({
      ok: false,
      reason: 'no-sign-in',
    });
  });
});
