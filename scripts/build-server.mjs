#!/usr/bin/env node
// Compiles the server to apps/server/dist (plain JavaScript, no TypeScript loader at run time) when
// its sources changed. Entries: the server, the admin command and the two worker threads; our own
// code (server and contracts) and the pure-JavaScript packages every start loads are bundled.
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fingerprint, root } from './fingerprint.mjs';

const server = path.join(root, 'apps/server');
const dist = path.join(server, 'dist');
const stamp = path.join(dist, '.fingerprint');
const INPUTS = ['apps/server/src', 'apps/server/package.json', 'packages/contracts/src', 'package-lock.json'];
const ENTRIES = {
  main: 'src/main.ts',
  admin: 'src/cli/admin.ts',
  'model-worker': 'src/modules/agents/model-worker.ts',
  'pglite-worker': 'src/db/pglite-worker.ts',
  'extract-worker': 'src/modules/knowledge/extract-worker.ts',
};

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

// Resolving and reading ~1,400 package files cost a start more than the rest of the server did, so
// packages are bundled, except: native addons and packages that read files beside themselves
// (PGlite's WebAssembly, argon2, the API reference page's assets), optional native peers, and the
// clients only some deployments load (PostgreSQL, S3, some model providers), which stay exactly what
// their tests ran.
const external = [
  '@electric-sql/pglite',
  // pgvector's bundle for PGlite (vector.tar.gz), found beside its module.
  '@electric-sql/pglite-pgvector',
  '@node-rs/argon2',
  '@fastify/swagger-ui',
  'pg',
  'pg-native',
  '@aws-sdk/client-s3',
  '@ai-sdk/anthropic',
  '@ai-sdk/google',
  'ollama-ai-provider-v2',
  // PDF.js loads its own worker module from beside itself.
  'pdfjs-dist',
  'bufferutil',
  'utf-8-validate',
];
const started = Date.now();
const out = `${dist}.${process.pid}.tmp`;
rmSync(out, { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: server,
  entryPoints: ENTRIES,
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Everything from npm stays in node_modules (native addons, wasm files found beside their package).
  external: external.flatMap((d) => [d, `${d}/*`]),
  sourcemap: true,
  // Stack traces need only the mappings; the sources are on disk. Kept, they were ~20 MiB of every
  // server's memory under --enable-source-maps.
  sourcesContent: false,
  logLevel: 'warning',
  // Bundled CommonJS dependencies call `require`.
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
});
// The migrator reads its SQL next to the code that runs it (db/client.ts).
cpSync(path.join(server, 'src/db/migrations'), path.join(out, 'migrations'), { recursive: true });
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
