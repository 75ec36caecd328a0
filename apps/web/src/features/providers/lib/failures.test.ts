import { beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../../lib/i18n/index.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { addressText, failureText } from './failures.ts';

beforeAll(async () => {
  await loadTestTexts('es');
});
const t = (key: string, vars?: Readonly<Record<string, unknown>>) => translator.t(key, vars);

describe('address and provider failures in words', () => {
  it('says which private address a name resolved to, and no more when the address was typed', () => {
    expect(
      addressText(t, 'private', 'https://llm.acme.test/v1', { host: 'llm.acme.test', address: '10.0.0.7' }),
    ).toBe(
      'llm.acme.test es una dirección de red privada (10.0.0.7). Usa una dirección pública o pide al operador que la incluya en PROVIDER_URL_ALLOWLIST.',
    );
    expect(addressText(t, 'private', 'http://192.168.1.20:8000/v1', { address: '192.168.1.20' })).toBe(
      '192.168.1.20 es una dirección de red privada. Usa una dirección pública o pide al operador que la incluya en PROVIDER_URL_ALLOWLIST.',
    );
  });

  it('names the host a connection was refused by, from the failure or else from the URL', () => {
    expect(
      failureText(t, { code: 'unreachable', address: 'refused' }, 'http://ollama.acme.test:11434'),
    ).toMatch(/^ollama\.acme\.test rechazó la conexión/);
    // Neither host nor URL: the general sentence, not one with a blank where the host goes.
    expect(failureText(t, { code: 'unreachable', address: 'timeout' }, null)).toBe(
      'No se pudo contactar con el proveedor. Revisa su dirección y que esté en marcha.',
    );
    expect(failureText(t, { code: 'key_refused', status: 403 }, null)).toBe(
      'El proveedor rechazó la clave de API (HTTP 403). Revisa la clave.',
    );
  });
});
