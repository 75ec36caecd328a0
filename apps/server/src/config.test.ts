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

  it('refuses an unknown service name and a short SECRET_KEY', () => {
    expect(() => loadConfig({ SERVICES: 'identity,mystery' })).toThrow(/SERVICES/);
    // Names that hosted nothing are refused rather than silently ignored.
    expect(() => loadConfig({ SERVICES: 'storage' })).toThrow(/SERVICES/);
    expect(() => loadConfig({ SERVICES: 'embedded' })).toThrow(/SERVICES/);
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(/SECRET_KEY/);
  });

  it('treats empty URLs as unset, as shells often export them', () => {
    const c = loadConfig({ DATABASE_URL: '', REDIS_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.ADMIN_EMAIL).toBeUndefined();
  });
});
