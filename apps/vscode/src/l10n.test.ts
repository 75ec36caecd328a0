import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const json = (file: string) =>
  JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Every string the code passes to `vscode.l10n.t` (English is the key). */
function codeStrings(): string[] {
  const found = new Set<string>();
  for (const file of sources(path.join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/l10n\.t\(\s*'((?:[^'\\]|\\.)*)'/g)) found.add(m[1]!);
  }
  return [...found].sort();
}

describe('translations', () => {
  it.each(['pt-br', 'es'])('the %s bundle translates exactly the strings the code uses', (locale) => {
    const bundle = json(`l10n/bundle.l10n.${locale}.json`);
    expect(Object.keys(bundle).sort()).toEqual(codeStrings());
    for (const [key, value] of Object.entries(bundle)) {
      expect(typeof value === 'string' && value.trim() !== '').toBe(true);
      // Placeholders survive translation.
      expect((value as string).match(/\{\d+\}/g)?.sort()).toEqual(key.match(/\{\d+\}/g)?.sort());
    }
  });

  it('the manifest names only keys that every package.nls file has', () => {
    const used = [...JSON.stringify(json('package.json')).matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!).sort();
    for (const file of ['package.nls.json', 'package.nls.pt-br.json', 'package.nls.es.json']) {
      expect(Object.keys(json(file)).sort(), file).toEqual([...new Set(used)]);
    }
  });
});
