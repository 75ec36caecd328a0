import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'apps/vscode/package.json'), 'utf8')) as {
  version: string;
};

function build(...args: string[]): string {
  const r = spawnSync(process.execPath, ['scripts/build-vscode.mjs', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('packaging the editor extension for the handoff page', { timeout: 180_000 }, () => {
  it('packages the .vsix the app offers, and skips an unchanged one', () => {
    expect(build('--force')).toMatch(/Editor extension: packaged/);
    const vsix = readFileSync(path.join(root, `apps/vscode/assistente-vscode-${version}.vsix`));
    // A .vsix is a zip holding the extension's manifest.
    expect(vsix.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(vsix.includes(Buffer.from('extension.vsixmanifest'))).toBe(true);
    expect(build()).toMatch(/Editor extension: up to date/);
  });
});
