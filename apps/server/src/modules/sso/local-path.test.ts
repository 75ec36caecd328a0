import { describe, expect, it } from 'vitest';
import { localPath } from './flow.ts';

/** The usual open-redirect corpus: every one of these names another origin, or none, to a browser. */
const ELSEWHERE = [
  'https://evil.test/',
  'http:evil.test',
  '//evil.test',
  '///evil.test',
  '/\\evil.test',
  '\\\\evil.test',
  '/\\/evil.test',
  '/..//evil.test',
  '/../..//evil.test',
  '/.//evil.test',
  '/%2e%2e//evil.test',
  '/%2E%2E//evil.test',
  '/chats/..//..//evil.test',
  '/\t/evil.test',
  '/\n/evil.test',
  '/\u0000/evil.test',
  'javascript:alert(1)',
  'chats',
  ' /chats',
];

describe('localPath: where the single sign-on may send the browser back', () => {
  it.each(ELSEWHERE)('refuses %j', (redirect) => {
    expect(localPath(redirect)).toBeUndefined();
  });

  it('keeps a path of this app, with its query and fragment, normalised', () => {
    expect(localPath(undefined)).toBe('/');
    expect(localPath('')).toBe('/');
    expect(localPath('/chats/abc?x=1#m2')).toBe('/chats/abc?x=1#m2');
    expect(localPath('/chats/../settings')).toBe('/settings');
    expect(localPath('/..')).toBe('/');
    expect(localPath('/%2F%2Fevil.test')).toBe('/%2F%2Fevil.test');
  });
});
