// How the server is compiled: shared by scripts/build-server.mjs (what `npm start` runs) and the
// benches' own build (bench/build.mjs), so a bench measures the code operators run, built alike.
import { cpSync } from 'node:fs';
import path from 'node:path';
import { root } from './fingerprint.mjs';

export const serverDir = path.join(root, 'apps/server');

/**
 * The worker threads' entries. A thread is started from the `.js` file named after its module
 * beside the code asking for it (lib/ts-worker.ts), so every build holding the server holds these.
 */
export const WORKER_ENTRIES = {
  'model-worker': path.join(serverDir, 'src/modules/agents/model-worker.ts'),
  'pglite-worker': path.join(serverDir, 'src/db/pglite-worker.ts'),
  'extract-worker': path.join(serverDir, 'src/modules/knowledge/extract-worker.ts'),
};

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

/** Compiles `entries` (name → absolute path) with the server's workers into `outdir`. */
export async function bundleServer(esbuild, { entries, outdir }) {
  await esbuild.build({
    absWorkingDir: serverDir,
    entryPoints: { ...entries, ...WORKER_ENTRIES },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Everything from npm stays in node_modules (native addons, wasm files found beside their package).
    external: external.flatMap((d) => [d, `${d}/*`]),
    // Without comments and whitespace: the code a start parses is ≈ 40 % smaller, and all ASCII
    // (one non-ASCII character in a comment made V8 keep a whole chunk as two-byte text, twice its
    // size). Names are kept, so stack traces read as before (docs/ARCHITECTURE.md#build-and-run).
    minifyWhitespace: true,
    minifySyntax: true,
    // Licence notices stay beside the code, in <chunk>.LEGAL.txt.
    legalComments: 'linked',
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
  cpSync(path.join(serverDir, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
}
