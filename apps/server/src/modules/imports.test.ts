import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = path.dirname(new URL(import.meta.url).pathname);

/** Every relative import of each non-test file under modules/, as `module → file it imports`. */
function moduleImports(): Array<{ from: string; file: string; to: string; target: string }> {
  const out: Array<{ from: string; file: string; to: string; target: string }> = [];
  for (const mod of readdirSync(MODULES, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const dir = path.join(MODULES, mod.name);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const src = readFileSync(path.join(dir, file), 'utf8');
      for (const m of src.matchAll(/from\s+'(\.\.\/[^']+)'/g)) {
        const target = path.relative(MODULES, path.resolve(dir, m[1] ?? ''));
        const [to] = target.split(path.sep);
        if (to && to !== mod.name && !to.startsWith('..')) out.push({ from: mod.name, file, to, target });
      }
    }
  }
  return out;
}

describe('module boundaries', () => {
  it('no two modules import each other', () => {
    const edges = new Set(moduleImports().map((e) => `${e.from}→${e.to}`));
    const cycles = [...edges].filter((e) => {
      const [a, b] = e.split('→');
      return a! < b! && edges.has(`${b}→${a}`);
    });
    expect(cycles).toEqual([]);
  });

  it('only accounts reads the accounts store', () => {
    const readers = moduleImports().filter((e) => e.target === path.join('accounts', 'store.ts'));
    expect(readers.map((e) => `${e.from}/${e.file}`)).toEqual([]);
  });
});
