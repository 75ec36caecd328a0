import type { EmbeddedSession } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { embeddedConfig, embeddedSession } from './embeddedShapes.ts';

const session: EmbeddedSession = {
  idToken: 'id',
  refreshToken: 'refresh',
  expiresIn: '3600',
  user: { _id: 'visitor-1', displayName: 'Visitante' },
  domain: { _id: 'acme.com', displayName: 'Acme' },
  virtualAccount: {
    virtualAccountId: 'va-1',
    displayName: 'Ajuda',
    color: '#1565c0',
    welcome: 'Olá',
    allowAttachments: false,
    agent: { _id: 's-1', name: 'Santito', avatar: null, starters: ['Oi'] },
  },
};

describe('embeddedSession', () => {
  it('keeps a session as the server makes it, and only its known fields', () => {
    expect(embeddedSession({ ...session, extra: 1 })).toEqual(session);
    expect(
      embeddedSession({ ...session, virtualAccount: { ...session.virtualAccount, agent: null } }),
    ).toEqual({
      ...session,
      virtualAccount: { ...session.virtualAccount, agent: null },
    });
  });

  it.each([
    ['not an object', 'x'],
    ['a token missing', { ...session, idToken: undefined }],
    ['no user', { ...session, user: null }],
    ['a domain without a name', { ...session, domain: { _id: 'acme.com' } }],
    [
      'a config flag of the wrong type',
      { ...session, virtualAccount: { ...session.virtualAccount, allowAttachments: 'no' } },
    ],
    [
      'starters that are not texts',
      {
        ...session,
        virtualAccount: {
          ...session.virtualAccount,
          agent: { ...session.virtualAccount.agent, starters: [1] },
        },
      },
    ],
  ])('refuses %s', (_, data) => {
    expect(embeddedSession(data)).toBeNull();
  });
});

describe('embeddedConfig', () => {
  it('refuses an agent without its fields (an older build’s record)', () => {
    expect(embeddedConfig({ ...session.virtualAccount, agent: { _id: 's-1' } })).toBeNull();
    expect(embeddedConfig(session.virtualAccount)).toEqual(session.virtualAccount);
  });
});
