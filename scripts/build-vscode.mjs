#!/usr/bin/env node
// Packages the editor extension (apps/vscode/assistente-vscode-<version>.vsix) when its sources
// changed, so the app can offer it from the handoff page (`/downloads/assistente-vscode.vsix`)
// on a fresh install too. An install without dev dependencies keeps what was packaged before.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fingerprint, root } from './fingerprint.mjs';

const dir = path.join(root, 'apps/vscode');
const stamp = path.join(dir, '.vsix-fingerprint');
const INPUTS = [
  'apps/vscode/src',
  'apps/vscode/l10n',
  'apps/vscode/media',
  'apps/vscode/esbuild.mjs',
  'apps/vscode/package.json',
  'apps/vscode/package.nls.json',
  'apps/vscode/package.nls.pt-br.json',
  'apps/vscode/package.nls.es.json',
  'apps/vscode/README.md',
  'apps/vscode/.vscodeignore',
  'packages/contracts/src',
  'package-lock.json',
];

const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
const vsix = path.join(dir, `assistente-vscode-${version}.vsix`);
const id = fingerprint(INPUTS);
const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
if (built === id && existsSync(vsix) && !process.argv.includes('--force')) {
  console.log('Editor extension: up to date');
  process.exit(0);
}
try {
  createRequire(path.join(dir, 'package.json')).resolve('@vscode/vsce/package.json');
} catch {
  console.log(
    'Editor extension: not packaged (its tools are dev dependencies); the download stays unavailable',
  );
  process.exit(0);
}
const started = Date.now();
const run = spawnSync('npm', ['run', 'package', '--silent', '-w', 'apps/vscode'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (run.status !== 0) {
  console.error('Editor extension: packaging failed');
  process.exit(1);
}
writeFileSync(stamp, `${id}\n`);
console.log(`Editor extension: packaged in ${((Date.now() - started) / 1000).toFixed(1)} s`);
