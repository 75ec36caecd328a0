import { describe, expect, it } from 'vitest';
import { visitorSession } from '../../../test/fixtures.ts';
import { pageOrigins, readHostMessage } from './frame.ts';

const SITE = 'https://shop.example.com';
const parent = {};
const session = visitorSession({
  idToken: 'id',
  refreshToken: 'refresh',
  user: { _id: 'va:1:v1', displayName: 'Visitor' },
});

describe('the host page’s messages', () => {
  const message = (over: Partial<{ origin: string; source: unknown; data: unknown }> = {}) => ({
    origin: SITE,
    source: parent,
    data: { type: 'assistente:session', session, replace: false },
    ...over,
  });

  it('are taken from the parent on an allowed site', () => {
    expect(readHostMessage(message() as MessageEvent, [SITE], parent)).toEqual({
      type: 'session',
      session,
      replace: false,
    });
    expect(
      readHostMessage(
        message({ data: { type: 'assistente:session-error' } }) as MessageEvent,
        [SITE],
        parent,
      ),
    ).toEqual({ type: 'session-error', code: null });
    // The server's reason comes along, so the page can say what is wrong.
    const refused = {
      type: 'assistente:session-error',
      error: { error: { status: 401, code: 'INVALID_VISITOR_SIGNATURE', message: 'no match' } },
    };
    expect(readHostMessage(message({ data: refused }) as MessageEvent, [SITE], parent)).toEqual({
      type: 'session-error',
      code: 'INVALID_VISITOR_SIGNATURE',
    });
  });

  it('are ignored from another site, another frame, or when they are not a session', () => {
    expect(
      readHostMessage(message({ origin: 'https://evil.example' }) as MessageEvent, [SITE], parent),
    ).toBeNull();
    expect(readHostMessage(message({ source: {} }) as MessageEvent, [SITE], parent)).toBeNull();
    expect(readHostMessage(message() as MessageEvent, [], parent)).toBeNull();
    expect(
      readHostMessage(
        message({ data: { type: 'assistente:session', session: { idToken: 1 } } }) as MessageEvent,
        [SITE],
        parent,
      ),
    ).toBeNull();
    expect(
      readHostMessage(message({ data: 'assistente:session' }) as MessageEvent, [SITE], parent),
    ).toBeNull();
  });
});

describe('the page’s origins', () => {
  it('are read from the meta tag the server writes, absent for an unknown embed', () => {
    const doc = document.implementation.createHTMLDocument('x');
    expect(pageOrigins(doc)).toBeNull();
    const meta = doc.createElement('meta');
    meta.name = 'assistente-embed-origins';
    meta.content = JSON.stringify([SITE]);
    doc.head.appendChild(meta);
    expect(pageOrigins(doc)).toEqual([SITE]);
    meta.content = 'not json';
    expect(pageOrigins(doc)).toBeNull();
  });
});
