import { describe, expect, it } from 'vitest';
import { changedFields, redactSecrets } from './store.ts';

describe('audit records', () => {
  it('never keep anything that looks like a secret, at any depth', () => {
    expect(
      redactSecrets({
        displayName: 'Ana',
        password: 'x',
        passwordHash: 'y',
        apiKey: 'k',
        nested: { refreshToken: 't', clientSecret: 's', keep: 1, list: [{ api_key: 'z', ok: true }] },
        when: new Date('2026-01-02T03:04:05.000Z'),
        gone: undefined,
      }),
    ).toEqual({
      displayName: 'Ana',
      nested: { keep: 1, list: [{ ok: true }] },
      when: '2026-01-02T03:04:05.000Z',
    });
  });

  it('an update keeps only what changed, both sides', () => {
    expect(
      changedFields(
        { role: 'Viewer', displayName: 'A', eula: { accept: false } },
        { role: 'Admin', displayName: 'A', eula: { accept: true } },
      ),
    ).toEqual({
      before: { role: 'Viewer', eula: { accept: false } },
      after: { role: 'Admin', eula: { accept: true } },
    });
  });
});
