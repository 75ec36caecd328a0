#!/usr/bin/env node
// Compiles the server to apps/server/dist (plain JavaScript, no TypeScript loader at run time) when
// its sources changed. Entries: the server, the admin command and the worker threads; how they are
// bundled is scripts/server-bundle.mjs.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fingerprint } from './fingerprint.mjs';
import { bundleServer, serverDir } from './server-bundle.mjs';

const dist = path.join(serverDir, 'dist');
const stamp = path.join(dist, '.fingerprint');
const INPUTS = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/contracts/src',
  'package-lock.json',
  // How it is bundled: a changed option must rebuild what a start runs.
  'scripts/server-bundle.mjs',
];

const id = fingerprint(INPUTS);
const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
if (built === id && !process.argv.includes('--force')) {
  console.log('Server: up to date');
  process.exit(0);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // An install without dev dependencies runs what was built before it.
  if (built) {
    console.log(
      'Server: sources changed, but esbuild is not installed (npm install --omit=dev): running the last build',
    );
    process.exit(0);
  }
  console.error(
    'Server: not built, and esbuild is not installed: run `npm install` (with dev dependencies) first.',
  );
  process.exit(1);
}

const started = Date.now();
const out = `${dist}.${process.pid}.tmp`;
rmSync(out, { recursive: true, force: true });
await bundleServer(esbuild, {
  entries: { main: path.join(serverDir, 'src/main.ts'), admin: path.join(serverDir, 'src/cli/admin.ts') },
  outdir: out,
});
writeFileSync(path.join(out, '.fingerprint'), `${id}\n`);
// Swap the new build in; a server still running keeps the modules it loaded. Two builds racing
// (parallel test set-ups) made the same files: the loser drops its copy.
rmSync(dist, { recursive: true, force: true });
try {
  renameSync(out, dist);
} catch (err) {
  if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
  rmSync(out, { recursive: true, force: true });
}
console.log(`Server: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
