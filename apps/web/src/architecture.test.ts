import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The folder rules of docs/ARCHITECTURE.md#web-app, checked on the import statements themselves:
// features talk to each other and to the shell only through their index.ts, and no two areas
// depend on each other in a circle.

const SRC = path.resolve(import.meta.dirname);
/** The route tables: the app's, and the embedded chat page's (docs/ARCHITECTURE.md#embedded-chat). */
const ROUTE_TABLES = [
  path.join(SRC, 'app/router/routes.tsx'),
  path.join(SRC, 'app/embedded/EmbeddedApp.tsx'),
];

interface Import {
  from: string;
  to: string;
  dynamic: boolean;
  line: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Tests and their helpers may reach into a feature (to stub a module); the app's code may not. */
function isAppCode(file: string): boolean {
  const rel = path.relative(SRC, file);
  return !/\.test\.tsx?$/.test(rel) && !rel.startsWith(`test${path.sep}`) && rel !== 'vite-env.d.ts';
}

const SPECIFIER =
  /\b(?:import|export)\s[^'"]*?\bfrom\s*'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)|\bimport\s+'([^']+)'/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)].flatMap((match) => {
    const specifier = match[1] ?? match[2] ?? match[3] ?? '';
    if (!specifier.startsWith('.')) return [];
    const line = text.slice(0, match.index).split('\n').length;
    return [
      { from: file, to: path.resolve(path.dirname(file), specifier), dynamic: match[2] !== undefined, line },
    ];
  });
}

/** The area a file belongs to: `features/<name>`, `app`, `ui`, `lib`, `locales` or `main.tsx`. */
function areaOf(file: string): string {
  const [top = '', second = ''] = path.relative(SRC, file).split(path.sep);
  return top === 'features' ? `features/${second}` : top;
}

const where = (i: Import) => `${path.relative(SRC, i.from)}:${i.line} → ${path.relative(SRC, i.to)}`;

const appFiles = sourceFiles(SRC).filter(isAppCode);
const imports = appFiles.flatMap(importsOf);
const features = readdirSync(path.join(SRC, 'features')).filter((name) =>
  statSync(path.join(SRC, 'features', name)).isDirectory(),
);
const indexOf = (feature: string) => path.join(SRC, 'features', feature, 'index.ts');

describe('feature boundaries', () => {
  it('every feature has an index.ts of re-exports only', () => {
    for (const feature of features) {
      const text = readFileSync(indexOf(feature), 'utf8');
      const statements = text
        .replace(/\/\/.*$/gm, '')
        .split(';')
        .map((statement) => statement.trim())
        .filter(Boolean);
      for (const statement of statements)
        expect(statement, `features/${feature}/index.ts`).toMatch(
          /^export (type )?\{[^}]*\} from '\.\/[^']+'$/s,
        );
    }
  });

  it('code outside a feature imports only its index.ts', () => {
    const offending = imports.filter((i) => {
      const target = areaOf(i.to);
      if (!target.startsWith('features/') || areaOf(i.from) === target) return false;
      if (i.dynamic) return false; // the router's lazy pages, checked below
      return i.to !== indexOf(target.slice('features/'.length));
    });
    expect(offending.map(where)).toEqual([]);
  });

  it('only the route tables load a feature lazily, and only the pages its index.ts lists', () => {
    const lazy = imports.filter(
      (i) => i.dynamic && areaOf(i.to).startsWith('features/') && areaOf(i.from) !== areaOf(i.to),
    );
    expect(lazy.length).toBeGreaterThan(0);
    const offending = lazy.filter((i) => {
      if (!ROUTE_TABLES.includes(i.from)) return true;
      const feature = areaOf(i.to).slice('features/'.length);
      const page = `./${path.relative(path.join(SRC, 'features', feature), i.to)}`;
      return !readFileSync(indexOf(feature), 'utf8').includes(
        `export { default as ${path.basename(i.to, '.tsx')} } from '${page}';`,
      );
    });
    expect(offending.map(where)).toEqual([]);
  });

  it('ui/ and lib/ know no feature and no shell; features know no shell', () => {
    const offending = imports.filter((i) => {
      const [from, to] = [areaOf(i.from), areaOf(i.to)];
      if (from === 'ui' || from === 'lib') return to === 'app' || to.startsWith('features/');
      return from.startsWith('features/') && to === 'app';
    });
    expect(offending.map(where)).toEqual([]);
  });

  it('no two areas (app, each feature, ui, lib) import each other in a circle', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      const [from, to] = [areaOf(i.from), areaOf(i.to)];
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (area: string, trail: string[]) => {
      if (state.get(area) === 'done') return;
      if (state.get(area) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(area)), area].join(' → '));
        return;
      }
      state.set(area, 'open');
      for (const next of edges.get(area) ?? []) visit(next, [...trail, area]);
      state.set(area, 'done');
    };
    for (const area of edges.keys()) visit(area, []);
    expect(cycles).toEqual([]);
  });
});
