#!/usr/bin/env node
// `node bench/build.mjs <name>…` compiles the benches' server processes (bench/<name>.ts, which host
// the app) to bench/.build the way scripts/build-server.mjs compiles the server, so a bench's server
// runs the code `npm start` runs, not sources through a TypeScript loader. Skipped when nothing it
// reads changed.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fingerprint, root } from '../scripts/fingerprint.mjs';
import { bundleServer } from '../scripts/server-bundle.mjs';

const names = process.argv.slice(2).sort();

const outdir = path.join(root, 'bench/.build');
const stamp = path.join(outdir, '.fingerprint');
const benchSources = readdirSync(path.join(root, 'bench'))
  .filter((f) => /\.(ts|mjs)$/.test(f))
  .map((f) => `bench/${f}`);
const id = fingerprint([
  'apps/server/src',
  'packages/contracts/src',
  'package-lock.json',
  'scripts/server-bundle.mjs',
  ...benchSources,
]).concat(`:${names.join(',')}`);
if ((existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '') !== id) {
  const esbuild = await import('esbuild');
  const tmp = `${outdir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  await bundleServer(esbuild, {
    entries: Object.fromEntries(names.map((n) => [n, path.join(root, `bench/${n}.ts`)])),
    outdir: tmp,
  });
  writeFileSync(path.join(tmp, '.fingerprint'), `${id}\n`);
  rmSync(outdir, { recursive: true, force: true });
  renameSync(tmp, outdir);
}
