// What the build scripts hash to tell whether their output is stale: the files under `inputs`
// (relative to the project's root), test files left out, in a stable order.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

function files(rel) {
  const abs = path.join(root, rel);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [rel];
  return readdirSync(abs, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (/\.test\.tsx?$/.test(e.name) ? [] : files(path.join(rel, e.name))));
}

/** A short hash of every input file's path and bytes. */
export function fingerprint(inputs) {
  const hash = createHash('sha256');
  for (const f of inputs.flatMap(files))
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(path.join(root, f)));
  return hash.digest('hex').slice(0, 16);
}
