import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('starts with no variables at all on the embedded defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SERVICES).toEqual(['all']);
    expect(c.RATE_LIMITS).toBe('on');
  });

  it('names every malformed variable in one message', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', DEFAULT_MODEL: 'gpt' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', DEFAULT_MODEL: 'gpt' });
    } catch (err) {
      const msg = (err as Error).message;
      expect(msg).toContain('PORT');
      expect(msg).toContain('DATABASE_URL');
      expect(msg).toContain('DEFAULT_MODEL must look like provider:model');
    }
  });

  it('reads the premium allow-list case-folded and trims PUBLIC_URL', () => {
    const c = loadConfig({ PREMIUM_DOMAINS: ' Acme.com , b.org,', PUBLIC_URL: 'https://chat.acme.com/' });
    expect(c.PREMIUM_DOMAINS).toEqual(['acme.com', 'b.org']);
    expect(c.publicUrl).toBe('https://chat.acme.com');
  });

  it('reads the editor callback origins as exact origins and refuses anything else', () => {
    expect(loadConfig({}).EDITOR_CALLBACK_ORIGINS).toEqual([]);
    const c = loadConfig({ EDITOR_CALLBACK_ORIGINS: ' http://127.0.0.2:8080/ , https://code.acme.com,' });
    expect(c.EDITOR_CALLBACK_ORIGINS).toEqual(['http://127.0.0.2:8080', 'https://code.acme.com']);
    for (const bad of [
      'code.acme.com',
      'https://code.acme.com/path',
      'javascript:alert(1)',
      'https://*.acme.com',
    ]) {
      expect(() => loadConfig({ EDITOR_CALLBACK_ORIGINS: bad }), bad).toThrow(/EDITOR_CALLBACK_ORIGINS/);
    }
  });

  it('refuses an unknown service name and a short SECRET_KEY', () => {
    expect(() => loadConfig({ SERVICES: 'identity,mystery' })).toThrow(/SERVICES/);
    // Names that hosted nothing are refused rather than silently ignored.
    expect(() => loadConfig({ SERVICES: 'storage' })).toThrow(/SERVICES/);
    expect(() => loadConfig({ SERVICES: 'embedded' })).toThrow(/SERVICES/);
    // A list that names nothing would host nothing.
    expect(() => loadConfig({ SERVICES: ' , ' })).toThrow(/SERVICES/);
    expect(loadConfig({ SERVICES: 'chats, agents,' }).SERVICES).toEqual(['chats', 'agents']);
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(/SECRET_KEY/);
  });

  it('reads METRICS_TOKEN: unset or empty serves no metrics, a short one is refused', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'guessable' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).METRICS_TOKEN).toBe('a'.repeat(16));
  });

  it('treats empty URLs as unset, as shells often export them', () => {
    const c = loadConfig({ DATABASE_URL: '', REDIS_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.ADMIN_EMAIL).toBeUndefined();
  });
});
