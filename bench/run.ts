// npm run bench: every figure is measured in this one run, so ratios compare like with like.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { measureChatsPage } from './chats-page.ts';
import { benchStart } from './start.ts';
import { benchStreaming } from './stream.ts';
import { benchUsersList } from './users-list.ts';
import { measureLoginPage } from './web.ts';

const root = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);

interface Load {
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const r = await autocannon({ url, headers, connections: 20, pipelining: 1, duration: DURATION });
  return {
    requestsPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/server-child.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { appPort, barePort, idToken, email, password } = JSON.parse(line) as {
    appPort: number;
    barePort: number;
    idToken: string;
    email: string;
    password: string;
  };
  const headers = { authorization: `Bearer ${idToken}`, 'x-endpoint-api-userinfo': idToken };
  const userPath = `/api/v1/user/${encodeURIComponent(email)}`;

  try {
    // Warm both, then alternate so drift in machine load hits both sides alike.
    await autocannon({
      url: `http://127.0.0.1:${appPort}${userPath}`,
      headers,
      connections: 10,
      duration: 2,
    });
    await autocannon({ url: `http://127.0.0.1:${barePort}${userPath}`, connections: 10, duration: 2 });
    const bare1 = await load(`http://127.0.0.1:${barePort}${userPath}`, {});
    const app1 = await load(`http://127.0.0.1:${appPort}${userPath}`, headers);
    const bare2 = await load(`http://127.0.0.1:${barePort}${userPath}`, {});
    const app2 = await load(`http://127.0.0.1:${appPort}${userPath}`, headers);
    const bareRps = (bare1.requestsPerSec + bare2.requestsPerSec) / 2;
    const appRps = (app1.requestsPerSec + app2.requestsPerSec) / 2;
    const ratio = appRps / bareRps;

    const signInMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${appPort}/identity/v1/accounts:signInWithPassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password, returnSecureToken: true }),
      });
      if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      signInMs.push(performance.now() - t0);
    }
    signInMs.sort((a, b) => a - b);

    const web = await measureLoginPage();
    const usersList = await benchUsersList();
    const chatsPage = await measureChatsPage();
    const streaming = await benchStreaming();
    const start = await benchStart();

    const results = {
      takenAt: new Date().toISOString(),
      machine: { node: process.version, cpus: (await import('node:os')).cpus().length },
      authenticatedUserRead: {
        bare: { requestsPerSec: bareRps, p99Ms: Math.max(bare1.p99, bare2.p99) },
        app: {
          requestsPerSec: appRps,
          p99Ms: Math.max(app1.p99, app2.p99),
          errors: app1.errors + app2.errors,
          non2xx: app1.non2xx + app2.non2xx,
        },
        ratio,
        budget: { minRatio: 0.6, ok: ratio >= 0.6 && app1.non2xx + app2.non2xx === 0 },
      },
      passwordSignIn: {
        samples: signInMs.length,
        p50Ms: signInMs[Math.floor(signInMs.length * 0.5)],
        p99Ms: signInMs[signInMs.length - 1],
      },
      loginPage: { ...web, budget: { maxGzipJsKB: 150, ok: web.gzipJsKB <= 150 } },
      usersList,
      chatsPage,
      streaming,
      start,
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    const file = path.join(root, 'bench/results', `bench-${results.takenAt.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);

    console.log('\nAuthenticated GET /api/v1/user/{id} vs bare Fastify route (same run):');
    console.log(`  bare  ${bareRps.toFixed(0)} req/s  p99 ${Math.max(bare1.p99, bare2.p99)} ms`);
    console.log(`  app   ${appRps.toFixed(0)} req/s  p99 ${Math.max(app1.p99, app2.p99)} ms`);
    console.log(
      `  ratio ${(ratio * 100).toFixed(1)} % (budget ≥ 60 %) ${results.authenticatedUserRead.budget.ok ? 'OK' : 'OVER BUDGET'}`,
    );
    console.log(
      `Password sign-in: p50 ${results.passwordSignIn.p50Ms?.toFixed(1)} ms, max ${results.passwordSignIn.p99Ms?.toFixed(1)} ms over 20`,
    );
    console.log(
      `/auth/login: ${web.gzipJsKB.toFixed(1)} KB gzipped JS in ${web.jsFiles} files (budget ≤ 150 KB) ${results.loginPage.budget.ok ? 'OK' : 'OVER BUDGET'}; load ${web.loadMs.toFixed(0)} ms with 4× CPU throttling`,
    );
    console.log(
      `Users list, domain of 10,000: first page p50 ${usersList.firstPage.p50} ms p99 ${usersList.firstPage.p99} ms; deep page p50 ${usersList.deepPage.p50} ms p99 ${usersList.deepPage.p99} ms; ratio ${usersList.ratio.toFixed(2)} (budget ≤ 2) ${usersList.budget.ok ? 'OK' : 'OVER BUDGET'}`,
    );
    console.log(
      `/chats: ${chatsPage.gzipJsKB.toFixed(1)} KB gzipped JS in ${chatsPage.jsFiles} files before the first message (budget ≤ 250 KB) ${chatsPage.budget.ok ? 'OK' : 'OVER BUDGET'}; ${chatsPage.laterGzipJsKB.toFixed(1)} KB more loaded later`,
    );
    const { ttft, perToken, concurrent } = streaming;
    console.log(
      `Streaming, time to first token: fixture direct p50 ${ttft.directP50Ms} ms, through the server p50 ${ttft.serverP50Ms} ms; added ${ttft.addedP50Ms} ms (budget ≤ 10 ms) ${streaming.ok.addedTtftP50 ? 'OK' : 'OVER BUDGET'}; per token added p50 ${perToken.addedP50Ms} ms`,
    );
    console.log(
      `Streaming, ${concurrent.streams} concurrent sockets: ${concurrent.completed} completed, ${concurrent.failed} failed; added inter-token p50 ${concurrent.addedInterTokenMs.p50} ms p99 ${concurrent.addedInterTokenMs.p99} ms (budget ≤ 50 ms) ${streaming.ok.p99AddedInterToken ? 'OK' : 'OVER BUDGET'}; server CPU ${concurrent.serverCpuPercentOfOneCore} % of one core, ${concurrent.memoryPerConnectionKiB} KiB heap and buffers per connection, ${concurrent.rssWithSocketsMiB} MiB RSS with all open`,
    );
    console.log(
      `Cold start to /healthz on an existing data dir: compiled ${start.compiled.toHealthzMs.toFixed(0)} ms vs TypeScript loader ${start.tsLoader.toHealthzMs.toFixed(0)} ms, ratio ${(start.ratio.toHealthz * 100).toFixed(0)} % (budget ≤ 60 %); idle RSS ${start.compiled.idleRssMiB.toFixed(0)} vs ${start.tsLoader.idleRssMiB.toFixed(0)} MiB, ratio ${(start.ratio.idleRss * 100).toFixed(0)} % (budget ≤ 75 %) ${start.budget.ok ? 'OK' : 'OVER BUDGET'}`,
    );
    console.log(`Results: ${path.relative(root, file)}`);
    const budgets = [
      results.authenticatedUserRead.budget,
      results.loginPage.budget,
      usersList.budget,
      chatsPage.budget,
      start.budget,
      { ok: Object.values(streaming.ok).every(Boolean) },
    ];
    if (budgets.some((b) => !b.ok)) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
