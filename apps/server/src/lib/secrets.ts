import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/** Seals short secrets (provider API keys…) at rest with AES-256-GCM. */
export interface SecretBox {
  /** `context` binds the ciphertext to its owner (e.g. a row id): it cannot be moved to another row. */
  seal(plain: string, context: string): string;
  /** Throws when the ciphertext was tampered with, moved, or sealed with another key. */
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';
const KEY_FILE = 'secret.key';

/**
 * The instance's secret: SECRET_KEY when set, else `${dataDir}/secret.key`, generated once (mode
 * 0600). Replicas must share SECRET_KEY: each has its own DATA_DIR.
 */
export function loadSecretKey(config: Pick<Config, 'SECRET_KEY' | 'dataDir'>): string {
  if (config.SECRET_KEY) return config.SECRET_KEY;
  const file = path.join(config.dataDir, KEY_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  try {
    // `wx`: two processes starting at once must end up with one key, not two.
    writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
    return generated;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(file, 'utf8').trim();
  }
}

/** A SecretBox keyed by a subkey derived from `secret`, so other uses of SECRET_KEY never share a key. */
export function createSecretBox(secret: string, purpose = 'secrets-at-rest'): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'assistente', `${purpose}:${VERSION}`, 32));
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64url'), ct.toString('base64url'), tag.toString('base64url')].join(
        '.',
      );
    },
    open(sealed, context) {
      const [version, iv, ct, tag] = sealed.split('.');
      if (version !== VERSION || !iv || ct === undefined || !tag) throw new Error('Unknown secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

type SecretConfig = Pick<Config, 'SECRET_KEY' | 'dataDir'>;

/** `build` keyed by the instance's secret, run once per config object (the key file is read once). */
export function keyedBySecret<T>(build: (secret: string) => T): (config: SecretConfig) => T {
  const built = new WeakMap<SecretConfig, T>();
  return (config) => {
    let value = built.get(config);
    if (value === undefined) {
      value = build(loadSecretKey(config));
      built.set(config, value);
    }
    return value;
  };
}

/** The instance's SecretBox. */
export const secretBoxFor = keyedBySecret((secret) => createSecretBox(secret));
