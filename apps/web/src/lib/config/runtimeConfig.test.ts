import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/fakeServices.ts';
import { loadRuntimeConfig, misplacedAppUrl, parseRuntimeConfig, relativeToProxy } from './runtimeConfig.ts';

describe('runtime config', () => {
  it('accepts the contract shape and ignores extra fields', () => {
    expect(parseRuntimeConfig({ ...testConfig, extra: 1 })).toEqual(testConfig);
  });

  it('refuses a config missing a field', () => {
    const { identity: _identity, ...rest } = testConfig;
    expect(() => parseRuntimeConfig(rest)).toThrow(/identity/);
    expect(() => parseRuntimeConfig({ ...testConfig, codeAssistUrl: 1 })).toThrow(/codeAssistUrl/);
  });

  it('loads /runtime-config.json', async () => {
    const fetch = async () => new Response(JSON.stringify(testConfig), { status: 200 });
    await expect(loadRuntimeConfig(fetch as typeof globalThis.fetch)).resolves.toMatchObject({
      projectId: 'assistente',
    });
    const failing = async () => new Response('', { status: 503 });
    await expect(loadRuntimeConfig(failing as typeof globalThis.fetch)).rejects.toThrow('status 503');
  });

  it('turns the API server origin into proxied paths in development', () => {
    const absolute = {
      ...testConfig,
      accountManagerUrl: 'http://localhost:3000',
      identity: { ...testConfig.identity, baseUrl: 'http://localhost:3000/identity' },
    };
    const relative = relativeToProxy(absolute, 'http://localhost:3000');
    expect(relative.accountManagerUrl).toBe('');
    expect(relative.identity.baseUrl).toBe('/identity');
    expect(relative.editorDeepLink).toBe(testConfig.editorDeepLink);
  });

  it('names the configured address when the page was opened at another one', () => {
    const config = { ...testConfig, appUrl: 'https://chat.acme.com' };
    expect(misplacedAppUrl(config, 'https://chat.acme.com')).toBeUndefined();
    expect(misplacedAppUrl(config, 'http://10.0.0.5:3000')).toBe('https://chat.acme.com');
    expect(
      misplacedAppUrl({ ...testConfig, appUrl: 'http://127.0.0.1:3000' }, 'http://127.0.0.1:3000'),
    ).toBeUndefined();
  });
});
