import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The README promises Node.js ≥ 20.19: no package the lockfile installs may ask for more (npm then
 * warns EBADENGINE on every install, and the package may use what Node 20 lacks).
 */
const root = path.resolve(import.meta.dirname, '..');
const promised = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;

describe('engines', () => {
  it('every installed package accepts the Node.js version the README promises', () => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const floor = semver.minVersion(promised)?.version ?? '20.19.0';
    const refused = Object.entries(lock.packages)
      .filter(([name, p]) => name !== '' && !Array.isArray(p.engines) && p.engines?.node)
      .filter(([, p]) => !semver.satisfies(floor, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name}@${p.version}: node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
