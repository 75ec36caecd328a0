import { configDefaults, defineConfig } from 'vitest/config';

const serverTests = ['apps/server/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'];
/** Tests that need several server processes on one database: PostgreSQL only. */
const POSTGRES_ONLY = 'apps/server/src/**/*.postgres.test.ts';
/** Compiles the server before its tests: the processes they start run the build. */
const BUILD_SERVER = 'apps/server/src/test/build-server.global.ts';

if (!process.env.TEST_DATABASE_URL) {
  // Said where it is seen: without PostgreSQL these tests do not run (CI sets it).
  console.warn(
    'TEST_DATABASE_URL is not set: the integration tests run on PGlite only, and the multi-replica tests (*.postgres.test.ts) do not run.',
  );
}

export default defineConfig({
  test: {
    // Most test files wait on a database, a socket or a child process rather than the CPU: four at
    // once on a two-core machine ran the suite in ≈ 10.5 min against ≈ 18.5 min with the default two.
    maxWorkers: 4,
    projects: [
      {
        test: {
          name: 'server',
          include: serverTests,
          globalSetup: [BUILD_SERVER],
          exclude: [...configDefaults.exclude, POSTGRES_ONLY],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // The same integration tests again on the real PostgreSQL when one is configured (CI).
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'server-postgres',
                globalSetup: [BUILD_SERVER],
                include: ['apps/server/src/**/*.integration.test.ts', POSTGRES_ONLY],
                environment: 'node',
                env: { TEST_DB: 'postgres' },
                testTimeout: 60_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      './apps/web/vite.config.ts',
      {
        test: {
          name: 'vscode',
          include: ['apps/vscode/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
