import { describe, expect, it } from 'vitest';
import type { UserCaller } from '../../lib/caller.ts';
import { authorizeHandoff, authorizeSession } from './policy.ts';

const ana = { kind: 'user', uid: 'u1', email: 'ana@acme.com' } as UserCaller;

describe('code assist policy', () => {
  it('hands over only the account signed in, whose email is confirmed', () => {
    expect(() => authorizeHandoff(ana, ' Ana@Acme.com ')).not.toThrow();
    expect(() => authorizeHandoff(ana, 'bob@acme.com')).toThrow(/does not match/);
  });

  it('takes only a refresh token of a live session of that same account', () => {
    expect(() => authorizeSession(ana, { uid: 'u1' }, true)).not.toThrow();
    expect(() => authorizeSession(ana, { uid: 'u1' }, false)).toThrow(/active session/);
    expect(() => authorizeSession(ana, { uid: 'u2' }, true)).toThrow(/active session/);
    expect(() => authorizeSession(ana, undefined, true)).toThrow(/active session/);
  });
});
