// Hosts the app (PGlite, rate limits off) and a bare Fastify route answering the same JSON,
// in one child process so the load generator never shares the server's event loop.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-bench-'));
const email = 'bench@bench.test';
const password = 'bench-password-Q9x!';
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMITS: 'off',
  ADMIN_EMAIL: email,
  ADMIN_PASSWORD: password,
  PUBLIC_URL: 'http://127.0.0.1:1',
});
const { app } = await buildApp({ config, logger: { level: 'warn' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.server.address() as { port: number }).port;

const signIn = await app.inject({
  method: 'POST',
  url: '/identity/v1/accounts:signInWithPassword',
  payload: { email, password, returnSecureToken: true },
});
const { idToken } = signIn.json() as { idToken: string };
const user = await app.inject({
  url: `/api/v1/user/${email}`,
  headers: { authorization: `Bearer ${idToken}` },
});
if (user.statusCode !== 200) throw new Error(`user fetch failed: ${user.statusCode} ${user.body}`);
const body = user.json();

const bare = Fastify({ logger: false });
bare.get('/api/v1/user/:id', async () => body);
await bare.listen({ port: 0, host: '127.0.0.1' });
const barePort = (bare.server.address() as { port: number }).port;

process.stdout.write(`${JSON.stringify({ appPort, barePort, idToken, email, password })}\n`);
process.on('SIGTERM', async () => {
  await Promise.allSettled([app.close(), bare.close()]);
  process.exit(0);
});
