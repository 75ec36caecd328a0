// npm run bench: every figure is measured in this one run, so ratios compare like with like.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { measureChatsPage } from './chats-page.ts';
import { benchCrash } from './crash.ts';
import { benchDocumentBombs, describeDocumentBombs } from './document-bombs.ts';
import { benchEmbedded } from './embedded.ts';
import { benchKnowledge, describeKnowledge } from './knowledge.ts';
import { benchMetrics, describeMetrics } from './metrics.ts';
import { benchOpenAiStreaming } from './openai-api.ts';
import { benchPii, describePii } from './pii.ts';
import { startRedisDown } from './redis-down.ts';
import { benchRetention, describeRetention } from './retention.ts';
import { benchSso } from './sso.ts';
import { benchStart } from './start.ts';
import { benchStreaming } from './stream.ts';
import { benchTools, describeTools } from './tools.ts';
import { benchUsageSummary, describeUsageSummary } from './usage-summary.ts';
import { benchUserRead, startBenchServer } from './user-read.ts';
import { benchUsersList } from './users-list.ts';
import { readVscodeFigures } from './vscode.ts';
import { measureLoginPage } from './web.ts';

const root = path.resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  // Started first and checked last: the Redis-less replica must still answer 10 minutes on.
  const redisDown = await startRedisDown();
  const server = await startBenchServer();
  const { appPort, email, password } = server;

  try {
    const userRead = await benchUserRead(server);
    const { ratio } = userRead;

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
    const usageSummary = await benchUsageSummary();
    const chatsPage = await measureChatsPage();
    const streaming = await benchStreaming();
    const metrics = await benchMetrics();
    const retention = await benchRetention();
    const openAiApi = await benchOpenAiStreaming();
    const tools = await benchTools();
    const pii = benchPii();
    const sso = await benchSso();
    const embedded = await benchEmbedded();
    const knowledge = await benchKnowledge();
    const documentBombs = await benchDocumentBombs();
    const crash = await benchCrash();
    const start = await benchStart();
    const withoutRedis = await redisDown.finish();
    const vscode = readVscodeFigures();

    const results = {
      takenAt: new Date().toISOString(),
      machine: { node: process.version, cpus: (await import('node:os')).cpus().length },
      authenticatedUserRead: userRead,
      passwordSignIn: {
        samples: signInMs.length,
        p50Ms: signInMs[Math.floor(signInMs.length * 0.5)],
        p99Ms: signInMs[signInMs.length - 1],
      },
      loginPage: { ...web, budget: { maxGzipJsKB: 150, ok: web.gzipJsKB <= 150 } },
      usersList,
      usageSummary,
      chatsPage,
      streaming,
      metrics,
      retention,
      openAiApi,
      tools,
      pii,
      sso,
      embedded,
      knowledge,
      documentBombs,
      crash,
      start,
      withoutRedis,
      vscode,
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    const file = path.join(root, 'bench/results', `bench-${results.takenAt.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);

    console.log('\nAuthenticated GET /api/v1/user/{id} vs bare Fastify route (same run):');
    console.log(`  bare  ${userRead.bare.requestsPerSec.toFixed(0)} req/s  p99 ${userRead.bare.p99Ms} ms`);
    console.log(`  app   ${userRead.app.requestsPerSec.toFixed(0)} req/s  p99 ${userRead.app.p99Ms} ms`);
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
      `Streaming, ${concurrent.streams} concurrent sockets: ${concurrent.completed} completed, ${concurrent.failed} failed; tokens later than their stream's quickest p50 ${concurrent.tokenLatenessMs.p50} ms p99 ${concurrent.tokenLatenessMs.p99} ms (budget ≤ 50 ms; fixture direct p99 ${concurrent.directTokenLatenessMs.p99} ms) ${streaming.ok.p99TokenLateness ? 'OK' : 'OVER BUDGET'}; server CPU ${concurrent.serverCpuPercentOfOneCore} % of one core, ${concurrent.memoryPerConnectionKiB} KiB heap and buffers per connection, ${concurrent.rssWithSocketsMiB} MiB RSS with all open`,
    );
    console.log(describeMetrics(metrics));
    console.log(describeRetention(retention));
    console.log(
      `OpenAI-compatible API, streamed time to first token: fixture direct p50 ${openAiApi.ttft.directP50Ms} ms, through /v1/chat/completions p50 ${openAiApi.ttft.serverP50Ms} ms; added ${openAiApi.ttft.addedP50Ms} ms (budget ≤ 10 ms) ${openAiApi.budget.ok ? 'OK' : 'OVER BUDGET'}`,
      `Budget admission (estimate, hold, settle), the same calls by someone a budget covers: first token p50 ${openAiApi.admission.budgetedP50Ms} ms, added ${openAiApi.admission.addedP50Ms} ms (budget ≤ ${openAiApi.admission.budgetMs} ms) ${openAiApi.admission.ok ? 'OK' : 'OVER BUDGET'}`,
      `SSO callback to signed-in session, server time without the provider: p50 ${sso.serverMs.p50} ms, p95 ${sso.serverMs.p95} ms over ${sso.samples} (budget ≤ 300 ms) ${sso.budget.ok ? 'OK' : 'OVER BUDGET'}; cold ${sso.coldMs} ms`,
      `Embedded chat: session creation ${embedded.sessions.appRequestsPerSec} req/s = ${embedded.sessions.ratio}% of a bare route's ${embedded.sessions.bareRequestsPerSec} (budget ≥ 40%) ${embedded.budget.ok ? 'OK' : 'OVER BUDGET'} over ${embedded.sessions.rounds} rounds; server CPU ${embedded.sessions.appCpuMicrosPerRequest} µs a session vs ${embedded.sessions.bareCpuMicrosPerRequest} µs (${embedded.sessions.cpuRatio}%); ${embedded.visitors.count} anonymous visitors, ${embedded.visitors.concurrency} at a time: ${embedded.visitors.failed} failed, ${embedded.visitors.perSecond}/s, session p50 ${embedded.visitors.sessionP50Ms} ms, first token p50 ${embedded.visitors.firstTokenP50Ms} ms, p99 ${embedded.visitors.firstTokenP99Ms} ms`,
    );
    console.log(describeTools(tools));
    console.log(describePii(pii));
    console.log(describeUsageSummary(usageSummary));
    for (const line of describeKnowledge(knowledge)) console.log(line);
    console.log(describeDocumentBombs(documentBombs));
    console.log(
      `Crash (kill -9) with ${crash.streams} answers streaming: text readers saw that the store lost p50 ${crash.lossMs.p50} ms, max ${crash.lossMs.max} ms of stream (budget ≤ ${crash.budget.maxLossMs} ms); finalised ${(crash.finalisedAfterMs / 1000).toFixed(1)} s after the restart${crash.problems.length ? `; ${crash.problems.length} problems: ${crash.problems.slice(0, 3).join('; ')}` : ''} ${crash.budget.ok ? 'OK' : 'OVER BUDGET'}`,
    );
    console.log(
      `Cold start to /healthz on an existing data dir: compiled ${start.compiled.toHealthzMs.toFixed(0)} ms vs TypeScript loader ${start.tsLoader.toHealthzMs.toFixed(0)} ms, ratio ${(start.ratio.toHealthz * 100).toFixed(0)} % (budget ≤ 60 %); idle RSS ${start.compiled.idleRssMiB.toFixed(0)} vs ${start.tsLoader.idleRssMiB.toFixed(0)} MiB, ratio ${(start.ratio.idleRss * 100).toFixed(0)} % (budget ≤ 75 %) ${start.budget.ok ? 'OK' : 'OVER BUDGET'}`,
    );
    console.log(
      `Redis unreachable: password sign-in p50 ${withoutRedis.signInMs.p50} ms, p99 ${withoutRedis.signInMs.p99} ms over ${withoutRedis.signIns} (budget ≤ 300 ms); ${withoutRedis.answeredAtEnd ? `alive and answering after ${withoutRedis.aliveAfterMin} min` : 'NOT answering at the end'} (budget ≥ 10 min) ${withoutRedis.budget.ok ? 'OK' : 'OVER BUDGET'}`,
    );
    console.log(
      vscode.measuredAt
        ? `VS Code extension (e2e run of ${vscode.measuredAt}): .vsix ${vscode.vsixKiB} KiB (budget ≤ 1024), activation ${vscode.activationCpuMs} ms CPU / ${vscode.activationWallMs} ms wall (budget ≤ 200 ms), first streamed token drawn ${vscode.firstTokenMs} ms after the model sent it (budget ≤ 50 ms) ${vscode.budget.ok ? 'OK' : 'OVER BUDGET'}`
        : 'VS Code extension: not measured yet (its end-to-end journey in npm test writes the figures)',
    );
    console.log(`Results: ${path.relative(root, file)}`);
    const budgets = [
      results.authenticatedUserRead.budget,
      results.loginPage.budget,
      usersList.budget,
      usageSummary.budget,
      chatsPage.budget,
      openAiApi.budget,
      openAiApi.admission,
      tools.budget,
      pii.budget,
      metrics.budget,
      retention.budget,
      start.budget,
      crash.budget,
      withoutRedis.budget,
      vscode.budget,
      sso.budget,
      embedded.budget,
      knowledge.budget,
      documentBombs.budget,
      { ok: Object.values(streaming.ok).every(Boolean) },
    ];
    if (budgets.some((b) => !b.ok)) process.exitCode = 1;
  } finally {
    server.stop();
  }
}

await main();
