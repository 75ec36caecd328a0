import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Vitest's global set-up for the server projects: the server compiled once, before any test, so
 * the tests that start server processes and the admin command run what `npm start` and
 * `npm run admin` run, several times faster to start than sources through tsx. Up to date, it costs
 * a fingerprint; the two server projects building at once each make the same files.
 */
export default function buildServer(): void {
  const root = path.resolve(import.meta.dirname, '../../../..');
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
}
