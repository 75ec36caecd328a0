// npm run bench: every figure is measured in this one run, so ratios compare like with like.
// `npm run bench -- --only stream,knowledge` runs those parts alone (names: `--list`).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureChatsPage } from './chats-page.ts';
import { buildBenchServers } from './child.ts';
import { benchCrash } from './crash.ts';
import { benchDocumentBombs, describeDocumentBombs } from './document-bombs.ts';
import { benchEmbedded, describeEmbedded } from './embedded.ts';
import { describeEmbeddedPage, measureEmbeddedPage } from './embedded-page.ts';
import { benchKnowledge, describeKnowledge } from './knowledge.ts';
import { benchMetrics, describeMetrics } from './metrics.ts';
import { benchOpenAiStreaming, describeOpenAiApi } from './openai-api.ts';
import { benchPii, describePii } from './pii.ts';
import { startRedisDown } from './redis-down.ts';
import { benchRetention, describeRetention } from './retention.ts';
import { percentile, verdict } from './rounds.ts';
import { benchSso } from './sso.ts';
import { benchStart, describeStart } from './start.ts';
import { benchStreaming, describeStreaming, streamingOk } from './stream.ts';
import { benchTools, describeTools } from './tools.ts';
import { benchUploads, describeUploads } from './uploads.ts';
import { benchUsageSummary, describeUsageSummary } from './usage-summary.ts';
import { benchUserRead, describeUserRead, startBenchServer } from './user-read.ts';
import { benchUsersList } from './users-list.ts';
import { readVscodeFigures } from './vscode.ts';
import { measureLoginPage } from './web.ts';

const root = path.resolve(import.meta.dirname, '..');

/** One part of the bench: what it measures, its lines for the summary, and whether its bars hold. */
interface Part<T> {
  name: string;
  run(): Promise<T>;
  describe(r: T): string[];
  ok(r: T): boolean;
}
const part = <T>(p: Part<T>): Part<unknown> => p as Part<unknown>;

async function authBench() {
  const server = await startBenchServer();
  try {
    const userRead = await benchUserRead(server);
    const signInMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${server.appPort}/identity/v1/accounts:signInWithPassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: server.email, password: server.password, returnSecureToken: true }),
      });
      if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      signInMs.push(performance.now() - t0);
    }
    return {
      userRead,
      passwordSignIn: { samples: 20, p50Ms: percentile(signInMs, 50), maxMs: Math.max(...signInMs) },
    };
  } finally {
    server.stop();
  }
}

/** Started before every other part and read after them: a Redis-less replica must still answer 10 minutes on. */
let redisDown: Awaited<ReturnType<typeof startRedisDown>> | undefined;

const PARTS: Part<unknown>[] = [
  part({
    name: 'auth',
    run: authBench,
    describe: (r) => [
      describeUserRead(r.userRead),
      `Password sign-in: p50 ${r.passwordSignIn.p50Ms.toFixed(1)} ms, max ${r.passwordSignIn.maxMs.toFixed(1)} ms over ${r.passwordSignIn.samples}`,
    ],
    ok: (r) => r.userRead.budget.ok,
  }),
  part({
    name: 'login-page',
    run: async () => {
      const web = await measureLoginPage();
      return { ...web, budget: { maxGzipJsKB: 120, ok: web.gzipJsKB <= 120 } };
    },
    describe: (web) => [
      `/auth/login: ${web.gzipJsKB.toFixed(1)} KB gzipped JS in ${web.jsFiles} files (budget ≤ ${web.budget.maxGzipJsKB} KB) ${verdict(web.budget.ok)}; load ${web.loadMs.toFixed(0)} ms with 4× CPU throttling`,
    ],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'users-list',
    run: benchUsersList,
    describe: (u) => [
      `Users list, domain of 10,000: first page p50 ${u.firstPage.p50} ms p99 ${u.firstPage.p99} ms; deep page p50 ${u.deepPage.p50} ms p99 ${u.deepPage.p99} ms; ratio ${u.ratio.toFixed(2)} (budget ≤ 2) ${verdict(u.budget.ok)}`,
    ],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'usage-summary',
    run: benchUsageSummary,
    describe: (r) => [describeUsageSummary(r)],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'chats-page',
    run: measureChatsPage,
    describe: (c) => [
      `/chats: ${c.gzipJsKB.toFixed(1)} KB gzipped JS in ${c.jsFiles} files before the first message (budget ≤ ${c.budget.maxGzipJsKB} KB), ${(c.gzipJsKB + c.laterGzipJsKB).toFixed(1)} KB at network idle (budget ≤ ${c.budget.maxGzipJsAtIdleKB} KB) ${verdict(c.budget.ok)}`,
    ],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'embedded-page',
    run: measureEmbeddedPage,
    describe: (r) => describeEmbeddedPage(r).split('\n'),
    ok: (r) => r.budget.ok,
  }),
  part({ name: 'stream', run: benchStreaming, describe: describeStreaming, ok: streamingOk }),
  part({ name: 'metrics', run: benchMetrics, describe: (r) => [describeMetrics(r)], ok: (r) => r.budget.ok }),
  part({
    name: 'retention',
    run: benchRetention,
    describe: (r) => [describeRetention(r)],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'openai',
    run: benchOpenAiStreaming,
    describe: (r) => [describeOpenAiApi(r)],
    ok: (r) => r.budget.ok && r.admission.ok,
  }),
  part({ name: 'tools', run: benchTools, describe: (r) => [describeTools(r)], ok: (r) => r.budget.ok }),
  part({
    name: 'pii',
    run: async () => benchPii(),
    describe: (r) => [describePii(r)],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'sso',
    run: benchSso,
    describe: (sso) => [
      `SSO callback to signed-in session, server time without the provider: p50 ${sso.serverMs.p50} ms, p95 ${sso.serverMs.p95} ms over ${sso.samples} (budget ≤ 300 ms) ${verdict(sso.budget.ok)}; cold ${sso.coldMs} ms`,
    ],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'embedded',
    run: benchEmbedded,
    describe: (r) => [describeEmbedded(r)],
    ok: (r) => r.budget.ok,
  }),
  part({ name: 'knowledge', run: benchKnowledge, describe: describeKnowledge, ok: (r) => r.budget.ok }),
  part({
    name: 'document-bombs',
    run: benchDocumentBombs,
    describe: (r) => [describeDocumentBombs(r)],
    ok: (r) => r.budget.ok,
  }),
  part({ name: 'uploads', run: benchUploads, describe: (r) => [describeUploads(r)], ok: (r) => r.budget.ok }),
  part({
    name: 'crash',
    run: benchCrash,
    describe: (crash) => [
      `Crash (kill -9) with ${crash.streams} answers streaming: text readers saw that the store lost p50 ${crash.lossMs.p50} ms, max ${crash.lossMs.max} ms of stream (budget ≤ ${crash.budget.maxLossMs} ms); finalised ${(crash.finalisedAfterMs / 1000).toFixed(1)} s after the restart${crash.problems.length ? `; ${crash.problems.length} problems: ${crash.problems.slice(0, 3).join('; ')}` : ''} ${verdict(crash.budget.ok)}`,
    ],
    ok: (r) => r.budget.ok,
  }),
  part({ name: 'start', run: benchStart, describe: (r) => [describeStart(r)], ok: (r) => r.budget.ok }),
  part({
    name: 'redis-down',
    run: async () => {
      if (!redisDown) throw new Error('the Redis-less replica was not started');
      return redisDown.finish();
    },
    describe: (r) => [
      `Redis unreachable: password sign-in p50 ${r.signInMs.p50} ms, p99 ${r.signInMs.p99} ms over ${r.signIns} (budget ≤ 300 ms); ${r.answeredAtEnd ? `alive and answering after ${r.aliveAfterMin} min` : 'NOT answering at the end'} (budget ≥ 10 min) ${verdict(r.budget.ok)}`,
    ],
    ok: (r) => r.budget.ok,
  }),
  part({
    name: 'vscode',
    run: async () => readVscodeFigures(),
    describe: (v) => [
      v.measuredAt
        ? `VS Code extension (e2e run of ${v.measuredAt}): .vsix ${v.vsixKiB} KiB (budget ≤ 1024), activation ${v.activationCpuMs} ms CPU / ${v.activationWallMs} ms wall (budget ≤ 200 ms), first streamed token drawn ${v.firstTokenMs} ms after the model sent it (budget ≤ 50 ms) ${verdict(v.budget.ok)}`
        : 'VS Code extension: not measured yet (its end-to-end journey in npm test writes the figures)',
    ],
    ok: (r) => r.budget.ok,
  }),
];

function selected(): Part<unknown>[] {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    console.log(PARTS.map((p) => p.name).join('\n'));
    process.exit(0);
  }
  const at = args.indexOf('--only');
  const eq = args.find((a) => a.startsWith('--only='));
  const list = eq ? eq.slice('--only='.length) : at >= 0 ? args[at + 1] : undefined;
  if (list === undefined) return PARTS;
  const names = list.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !PARTS.some((p) => p.name === n));
  if (unknown.length || names.length === 0) {
    console.error(`Unknown bench part: ${unknown.join(', ')}. Parts: ${PARTS.map((p) => p.name).join(', ')}`);
    process.exit(2);
  }
  return PARTS.filter((p) => names.includes(p.name));
}

async function main(): Promise<void> {
  const parts = selected();
  buildBenchServers();
  if (parts.some((p) => p.name === 'redis-down')) redisDown = await startRedisDown();
  const results: Record<string, unknown> = {};
  const verdicts: Array<{ name: string; ok: boolean; lines: string[] }> = [];
  for (const p of parts) {
    const t0 = performance.now();
    console.log(`… ${p.name}`);
    try {
      const r = await p.run();
      results[p.name] = r;
      const lines = p.describe(r);
      verdicts.push({ name: p.name, ok: p.ok(r), lines });
      for (const line of lines) console.log(`  ${line}`);
      console.log(`  (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    } catch (err) {
      // One part failing must not hide every other figure: it is reported, and the run fails.
      console.error(err);
      verdicts.push({ name: p.name, ok: false, lines: [`${p.name}: FAILED — ${String(err)}`] });
    }
  }
  const takenAt = new Date().toISOString();
  const out = {
    takenAt,
    parts: parts.map((p) => p.name),
    machine: { node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg() },
    ...results,
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', `bench-${takenAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(out, null, 2)}\n`);

  console.log('\nSummary:');
  for (const v of verdicts) for (const line of v.lines) console.log(line);
  const over = verdicts.filter((v) => !v.ok).map((v) => v.name);
  console.log(
    `\n${verdicts.length - over.length} of ${verdicts.length} parts within their bars${over.length ? `; over: ${over.join(', ')}` : ''}`,
  );
  console.log(`Results: ${path.relative(root, file)}`);
  if (over.length) process.exitCode = 1;
}

await main();
