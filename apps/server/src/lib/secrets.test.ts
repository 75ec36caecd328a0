import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretKey } from './secrets.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'secrets-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('secrets', () => {
  it('generates secret.key once, mode 0600, and reads it back', () => {
    const dataDir = path.join(dir, 'a');
    const first = loadSecretKey({ dataDir });
    const second = loadSecretKey({ dataDir });
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(40);
    const file = path.join(dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
  });

  it('prefers SECRET_KEY and writes no file', () => {
    const dataDir = path.join(dir, 'b');
    expect(loadSecretKey({ dataDir, SECRET_KEY: 'k'.repeat(40) })).toBe('k'.repeat(40));
    expect(() => statSync(path.join(dataDir, 'secret.key'))).toThrow();
  });

  it('seals with AES-256-GCM: round trip, fresh IV, bound to its context and key', () => {
    const box = createSecretBox('one-secret-key-of-enough-length-000000');
    const a = box.seal('sk-live-1234567890', 'row-1');
    const b = box.seal('sk-live-1234567890', 'row-1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-live');
    expect(box.open(a, 'row-1')).toBe('sk-live-1234567890');
    expect(() => box.open(a, 'row-2')).toThrow();
    // One character of the sealed text changed (to another one, whatever it was).
    const at = a.length - 3;
    const tampered = `${a.slice(0, at)}${a[at] === 'A' ? 'B' : 'A'}${a.slice(at + 1)}`;
    expect(tampered).not.toBe(a);
    expect(() => box.open(tampered, 'row-1')).toThrow();
    expect(() => createSecretBox('another-secret-key-of-enough-length-00').open(a, 'row-1')).toThrow();
  });
});
