#!/usr/bin/env node
// Builds the web app only when its sources changed, into a new directory, then points
// apps/web/dist at it in one rename. A server already running keeps serving the build it started
// with (it resolved dist when it started), so a rebuild beside it never blanks its users' pages.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { fingerprint, root } from './fingerprint.mjs';

const web = path.join(root, 'apps/web');
const builds = path.join(web, '.builds');
const dist = path.join(web, 'dist');
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/embedded.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contracts/src',
  'package-lock.json',
];
/**
 * Builds kept besides the current one, whether or not a server still runs on them (`--keep=N`;
 * a build a live server marked as its own is kept anyway).
 */
const KEEP = Number(process.argv.find((a) => a.startsWith('--keep='))?.slice('--keep='.length) ?? 3);
if (!Number.isInteger(KEEP) || KEEP < 0) {
  console.error('--keep takes a whole number of builds, 0 or more');
  process.exit(2);
}

/** The build directory dist points at, if any. */
function current() {
  try {
    return lstatSync(dist).isSymbolicLink() ? path.basename(readlinkSync(dist)) : undefined;
  } catch {
    return undefined;
  }
}

/** A build a live server marked as its own (see apps/server/src/plugins/web.ts). */
function inUse(dir) {
  const marks = path.join(builds, dir, '.in-use');
  if (!existsSync(marks)) return false;
  return readdirSync(marks).some((pid) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch (err) {
      return err.code === 'EPERM';
    }
  });
}

const id = fingerprint(INPUTS);
const force = process.argv.includes('--force');
const now = current();
/** The build's pages: the app's, and the embedded chat's (a build of its own, docs/ARCHITECTURE.md#embedded-chat). */
const PAGES = ['index.html', 'embedded.html'];
if (!force && now?.startsWith(`${id}-`) && PAGES.every((page) => existsSync(path.join(dist, page)))) {
  console.log('Web app: up to date');
  process.exit(0);
}

const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
if (!existsSync(vite)) {
  // An install without dev dependencies serves what was built before it.
  if (existsSync(path.join(dist, 'index.html'))) {
    console.log(
      'Web app: sources changed, but Vite is not installed (npm install --omit=dev): serving the last build',
    );
    process.exit(0);
  }
  console.error(
    'Web app: not built, and Vite is not installed: run `npm install` (with dev dependencies) first.',
  );
  process.exit(1);
}

const name = `${id}-${Date.now()}`;
const out = path.join(builds, name);
mkdirSync(builds, { recursive: true });
console.log('Web app: building…');
const started = Date.now();
const quiet = !process.argv.includes('--verbose');
const r = spawnSync(
  process.execPath,
  [vite, 'build', '--outDir', out, '--emptyOutDir', ...(quiet ? ['--logLevel', 'warn'] : [])],
  {
    cwd: web,
    stdio: 'inherit',
    // Always a production build, whoever runs this: under a test runner NODE_ENV is `test`, and
    // Vite then bundles React's development build and sets import.meta.env.DEV.
    env: { ...process.env, NODE_ENV: 'production' },
  },
);
if (r.status !== 0) {
  rmSync(out, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}

// Swap in one rename: a reader sees the old build or the new one, never none. An old checkout's
// dist may be a plain directory: it moves into .builds so a server using it keeps its files.
if (existsSync(dist) && !lstatSync(dist).isSymbolicLink())
  renameSync(dist, path.join(builds, `legacy-${Date.now()}`));
const link = `${dist}.${process.pid}.tmp`;
symlinkSync(path.join('.builds', name), link);
renameSync(link, dist);
console.log(`Web app: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const old = readdirSync(builds)
  .filter((d) => d !== name)
  .sort((a, b) => statSync(path.join(builds, b)).mtimeMs - statSync(path.join(builds, a)).mtimeMs);
for (const dir of old.slice(KEEP))
  if (!inUse(dir)) rmSync(path.join(builds, dir), { recursive: true, force: true });
