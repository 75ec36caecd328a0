import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');

function build(...args: string[]): string {
  const r = spawnSync(process.execPath, ['scripts/build-web.mjs', ...args], { cwd: root, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** A build's pages: the app's and the embedded chat's. */
const PAGES = ['index.html', 'embedded.html'];

/** The files a build's pages refer to. */
function referenced(dir: string): string[] {
  return PAGES.flatMap((page) => {
    const html = readFileSync(path.join(dir, page), 'utf8');
    return [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
  });
}

describe('building the web app beside a running server', { timeout: 240_000 }, () => {
  it('never removes the build a live server serves, swaps dist at once, and skips an unchanged build', async () => {
    build('--force');
    const served = realpathSync(dist);
    expect(referenced(served).length).toBeGreaterThan(0);
    // Built from a test runner (NODE_ENV=test), it is still the production build e2e and users get.
    expect(process.env.NODE_ENV).toBe('test');
    for (const file of referenced(served).filter((f) => f.endsWith('.js'))) {
      expect(readFileSync(path.join(served, file), 'utf8'), file).not.toContain('React DevTools');
    }
    // What the server does when it starts (plugins/web.ts): mark the build with its pid.
    mkdirSync(path.join(served, '.in-use'), { recursive: true });
    const mark = path.join(served, '.in-use', String(process.pid));
    writeFileSync(mark, '');

    // Past the builds kept whatever happens (none here, so two builds suffice where five did).
    build('--force', '--keep=0');
    expect(realpathSync(dist)).not.toBe(served);
    for (const file of [...PAGES, ...referenced(served)])
      expect(existsSync(path.join(served, file)), file).toBe(true);

    // Once no live server holds it, an old build goes.
    rmSync(mark);
    build('--force', '--keep=0');
    expect(existsSync(served)).toBe(false);

    expect(build()).toContain('Web app: up to date');
  });
});
