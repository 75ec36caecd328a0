import { describe, expect, it } from 'vitest';
import { getCookie, serializeCookie } from '../storage/cookies.ts';
import {
  LOCALE_COOKIE,
  localizePath,
  matchBrowserLanguage,
  rememberLocale,
  resolveBrowserLocale,
  resolveLocale,
} from './locale.ts';

describe('resolveLocale', () => {
  it('uses the URL prefix first, whatever the cookie and browser say', () => {
    expect(resolveLocale({ pathname: '/en/chats', cookie: 'es', languages: ['pt-BR'] })).toEqual({
      locale: 'en',
      prefix: 'en',
      path: '/chats',
    });
    expect(resolveLocale({ pathname: '/pt-BR', cookie: 'en', languages: [] })).toMatchObject({
      locale: 'pt-BR',
      path: '/',
    });
  });

  it('uses the remembered cookie for an unprefixed path', () => {
    expect(resolveLocale({ pathname: '/chats', cookie: 'es', languages: ['en-US'] })).toEqual({
      locale: 'es',
      prefix: null,
      path: '/chats',
    });
  });

  it('ignores an unknown cookie value and falls back to the browser language', () => {
    expect(resolveLocale({ pathname: '/', cookie: 'fr', languages: ['en-GB', 'pt-BR'] }).locale).toBe('en');
  });

  it('falls back to pt-BR when nothing matches', () => {
    expect(resolveLocale({ pathname: '/', cookie: null, languages: ['fr-FR', 'de'] }).locale).toBe('pt-BR');
    expect(resolveLocale({ pathname: '/', cookie: null, languages: [] }).locale).toBe('pt-BR');
  });

  it('does not take a path that merely starts like a locale for a prefix', () => {
    expect(resolveLocale({ pathname: '/english', cookie: null, languages: [] })).toMatchObject({
      prefix: null,
      path: '/english',
    });
  });
});

describe('matchBrowserLanguage', () => {
  it('matches exact tags case-insensitively, then base languages', () => {
    expect(matchBrowserLanguage(['PT-br'])).toBe('pt-BR');
    expect(matchBrowserLanguage(['pt-PT'])).toBe('pt-BR');
    expect(matchBrowserLanguage(['es-AR'])).toBe('es');
    expect(matchBrowserLanguage(['fr', 'es'])).toBe('es');
    expect(matchBrowserLanguage(['fr'])).toBeNull();
  });
});

describe('locale cookie', () => {
  it('is i18n_redirected for 365 days, SameSite=Lax, path /', () => {
    expect(serializeCookie(LOCALE_COOKIE, 'en', { maxAgeDays: 365, sameSite: 'Lax', path: '/' })).toBe(
      'i18n_redirected=en; Max-Age=31536000; Path=/; SameSite=Lax',
    );
  });

  it('is written by rememberLocale and read back for unprefixed paths', () => {
    rememberLocale('es');
    expect(getCookie(LOCALE_COOKIE)).toBe('es');
    expect(resolveBrowserLocale('/users').locale).toBe('es');
    expect(resolveBrowserLocale('/en/users').locale).toBe('en');
  });

  it('reads one cookie among several', () => {
    expect(getCookie('b', 'a=1; b=two%20words; c=3')).toBe('two words');
    expect(getCookie('d', 'a=1')).toBeNull();
  });
});

describe('localizePath', () => {
  it('keeps the prefix of the current page', () => {
    expect(localizePath('/chats', 'en')).toBe('/en/chats');
    expect(localizePath('/', 'es')).toBe('/es');
    expect(localizePath('/chats', null)).toBe('/chats');
  });
});
