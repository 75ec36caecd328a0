// Tools bench (issues 26, 27): what a tool round trip — the model asks for a tool, a local MCP
// server answers, the model resumes — adds over the tool's and the model's own time; how many MCP
// connections 200 people using three servers each keep open, and that idle ones close; and how long
// the server's event loop stalls while `fetch_page` reads a long page (its article is found off the
// main thread).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TestSocket } from '../apps/server/src/test/agents-client.ts';
import { useFixtureModel } from '../apps/server/src/test/fixture-model.ts';
import { type LlmScript, startLlmFixture } from '../apps/server/src/test/llm-fixture.ts';
import { startMcpStandin } from '../apps/server/src/test/mcp-standin.ts';
import { startWebStandin } from '../apps/server/src/test/web-standin.ts';
import { startBenchApp } from './bench-app.ts';
import { percentile } from './in-process.ts';

export interface ToolsBenchResult {
  roundTrip: {
    rounds: number;
    /** Send → message.done without tools, with one tool round trip; the direct model call and tool call. */
    plainP50Ms: number;
    withToolP50Ms: number;
    modelDirectP50Ms: number;
    toolDirectP50Ms: number;
    /** Median over rounds of (with tool − plain − model direct − tool direct). */
    addedP50Ms: number;
  };
  connections: {
    users: number;
    servers: number;
    peak: number;
    afterAnswers: number;
    afterIdle: number;
    idleMs: number;
  };
  pageRead: {
    reads: number;
    pageBytes: number;
    /** Send → done of an answer that reads the page, p50. */
    answerP50Ms: number;
    /** The main thread's event-loop delay while the pages were read. */
    loopDelayP99Ms: number;
    loopDelayMaxMs: number;
  };
  budget: { maxAddedMs: number; maxConnections: number; maxLoopDelayP99Ms: number; ok: boolean };
}

const ORIGIN = 'http://127.0.0.1:1';
const IDLE_MS = 1_500;
const USERS = Number(process.env.BENCH_TOOL_USERS ?? 200);

/** The long page `fetch_page` reads (set once the web stand-in runs). */
let largePage = '';

/**
 * The model: a step that reads tool results answers in words; one offered `fetch_page` reads the
 * long page; one offered tools calls every `echo` offered.
 */
function scriptFor(body: unknown): LlmScript | undefined {
  const b = body as { messages?: Array<{ role: string }>; tools?: Array<{ function: { name: string } }> };
  if (b.messages?.some((m) => m.role === 'tool')) return { text: 'The tool answered.' };
  if (b.tools?.some((t) => t.function.name === 'fetch_page')) {
    return {
      text: '',
      toolCalls: [{ id: 'call_page', name: 'fetch_page', arguments: JSON.stringify({ url: largePage }) }],
    };
  }
  const echoes = (b.tools ?? []).map((t) => t.function.name).filter((n) => n.startsWith('echo'));
  if (echoes.length === 0) return { text: 'A plain answer.' };
  return {
    text: '',
    toolCalls: echoes.map((name, i) => ({ id: `call_${i}`, name, arguments: '{"text":"bench"}' })),
  };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchTools(): Promise<ToolsBenchResult> {
  const fx = await startLlmFixture({ record: false, scriptFor });
  const standins = await Promise.all([startMcpStandin(), startMcpStandin(), startMcpStandin()]);
  const web = await startWebStandin();
  largePage = `${web.origin}/pages/large`;
  const allow = [fx.port, web.port, ...standins.map((m) => m.port)].map((p) => `127.0.0.1:${p}`).join(',');
  const bench = await startBenchApp('tools', {
    PROVIDER_URL_ALLOWLIST: allow,
    MCP_IDLE_MS: String(IDLE_MS),
    AGENT_SENDS_PER_MINUTE: '100000',
    AGENT_MAX_CONCURRENT: '10',
  });
  const direct = new Client({ name: 'bench', version: '1.0.0' });
  const sockets: TestSocket[] = [];
  try {
    const adminToken = await bench.user('admin@bench.test', 'Admin', 'Admin');
    const headers = { authorization: `Bearer ${adminToken}` };
    const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const res = await bench.app.inject({ method, url, headers, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, unknown>;
    };
    await useFixtureModel(bench.app, headers, fx.baseUrl);
    const servers: string[] = [];
    for (const [i, m] of standins.entries()) {
      servers.push(
        (await call('POST', '/api/v1/integration/mcp', { displayName: `Stand-in ${i}`, url: m.url }))
          .id as string,
      );
    }
    await call('PUT', '/api/v1/settings/tools', {
      rules: [{ match: 'mcp:*', decision: 'allow' }],
      userServers: false,
    });
    const reader = (await call('POST', '/api/v1/agent', { name: 'Reader', tools: ['builtin:fetch_page'] }))
      ._id as string;
    const plain = (await call('POST', '/api/v1/agent', { name: 'Plain' }))._id as string;
    const oneTool = (
      await call('POST', '/api/v1/agent', { name: 'One tool', tools: [`mcp:${servers[0]}:echo`] })
    )._id as string;
    const threeServers = (
      await call('POST', '/api/v1/agent', {
        name: 'Three servers',
        tools: servers.map((id) => `mcp:${id}:*`),
      })
    )._id as string;

    const wsUrl = `ws://127.0.0.1:${bench.port}/api/v1/agents/chat/`;
    const answer = async (s: TestSocket, agentId: string) => {
      const from = s.frames.length;
      const requestId = `r${Math.random()}`;
      s.send({ type: 'chat.send', requestId, chatId: null, agentId, content: 'bench' });
      const created = await s.next(
        'message.created',
        (f) => f.requestId === requestId && f.message.role === 'assistant',
        30_000,
        from,
      );
      const done = await s.next(
        'message.done',
        (f) => f.messageId === created.message.messageId,
        60_000,
        from,
      );
      if (done.status !== 'complete') throw new Error(`answer ended ${done.status}: ${done.error?.message}`);
    };

    // The round trip, interleaved with what it is compared to, so the machine's drift hits all alike.
    const admin = await TestSocket.open(wsUrl, { origin: ORIGIN, token: adminToken });
    sockets.push(admin);
    await direct.connect(new StreamableHTTPClientTransport(new URL(standins[0]?.url ?? '')));
    const modelDirect = () =>
      fetch(`${fx.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'fixture-small',
          stream: true,
          messages: [{ role: 'tool', content: 'x' }],
        }),
      }).then((r) => r.text());
    const rounds = Number(process.env.BENCH_TOOL_ROUNDS ?? 30);
    const plainMs: number[] = [];
    const toolMs: number[] = [];
    const modelMs: number[] = [];
    const mcpMs: number[] = [];
    const added: number[] = [];
    for (let i = 0; i < rounds + 3; i++) {
      const p = await timed(() => answer(admin, plain));
      const t = await timed(() => answer(admin, oneTool));
      const m = await timed(modelDirect);
      const d = await timed(() => direct.callTool({ name: 'echo', arguments: { text: 'bench' } }));
      if (i < 3) continue;
      plainMs.push(p);
      toolMs.push(t);
      modelMs.push(m);
      mcpMs.push(d);
      added.push(t - p - m - d);
    }
    const p50 = (xs: number[]) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
        2,
      );

    // 200 people, each asking the santito of three servers once, all at once.
    const tokens = await Promise.all(
      Array.from({ length: USERS }, (_, i) => bench.user(`user${i}@bench.test`, `User ${i}`, 'Viewer')),
    );
    const people = await Promise.all(
      tokens.map((token) => TestSocket.open(wsUrl, { origin: ORIGIN, token })),
    );
    sockets.push(...people);
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, bench.ctx.services.tools.openConnections());
    }, 20);
    await Promise.all(people.map((s) => answer(s, threeServers)));
    clearInterval(sampler);
    const afterAnswers = bench.ctx.services.tools.openConnections();
    peak = Math.max(peak, afterAnswers);
    await new Promise((r) => setTimeout(r, IDLE_MS * 2 + 200));
    const afterIdle = bench.ctx.services.tools.openConnections();

    // A long page read while the loop's delay is sampled: the article is found on another thread.
    const pageBytes = (await (await fetch(largePage)).arrayBuffer()).byteLength;
    const reads = Number(process.env.BENCH_PAGE_READS ?? 5);
    await answer(admin, reader);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const readMs: number[] = [];
    delay.enable();
    for (let i = 0; i < reads; i++) readMs.push(await timed(() => answer(admin, reader)));
    delay.disable();
    const loopDelayP99Ms = Math.round(delay.percentile(99) / 1e4) / 100;
    const loopDelayMaxMs = Math.round(delay.max / 1e4) / 100;

    const addedP50Ms = p50(added);
    const maxConnections = USERS * standins.length;
    return {
      roundTrip: {
        rounds,
        plainP50Ms: p50(plainMs),
        withToolP50Ms: p50(toolMs),
        modelDirectP50Ms: p50(modelMs),
        toolDirectP50Ms: p50(mcpMs),
        addedP50Ms,
      },
      connections: { users: USERS, servers: standins.length, peak, afterAnswers, afterIdle, idleMs: IDLE_MS },
      pageRead: { reads, pageBytes, answerP50Ms: p50(readMs), loopDelayP99Ms, loopDelayMaxMs },
      budget: {
        maxAddedMs: 15,
        maxConnections,
        maxLoopDelayP99Ms: 50,
        ok: addedP50Ms <= 15 && peak <= maxConnections && afterIdle === 0 && loopDelayP99Ms <= 50,
      },
    };
  } finally {
    await Promise.allSettled(sockets.map((s) => s.close()));
    await direct.close().catch(() => {});
    await bench.close();
    await fx.close();
    await Promise.allSettled(standins.map((m) => m.close()));
    await web.close();
  }
}

export function describeTools(r: ToolsBenchResult): string {
  const { roundTrip: t, connections: c, pageRead: p } = r;
  return `fetch_page of a ${Math.round(p.pageBytes / 1000)} KB page: answer p50 ${p.answerP50Ms} ms over ${p.reads} reads; the event loop's delay meanwhile p99 ${p.loopDelayP99Ms} ms, max ${p.loopDelayMaxMs} ms (budget p99 ≤ ${r.budget.maxLoopDelayP99Ms} ms). Tool round trip (model asks, a local MCP tool answers, the model resumes): send to done p50 ${t.withToolP50Ms} ms vs ${t.plainP50Ms} ms without; the model's own call ${t.modelDirectP50Ms} ms and the tool's ${t.toolDirectP50Ms} ms; added p50 ${t.addedP50Ms} ms over ${t.rounds} rounds (budget ≤ ${r.budget.maxAddedMs} ms); ${c.users} people × ${c.servers} servers: peak ${c.peak} MCP connections (budget ≤ ${r.budget.maxConnections}), ${c.afterAnswers} after the answers, ${c.afterIdle} after ${c.idleMs * 2} ms idle ${r.budget.ok ? 'OK' : 'OVER BUDGET'}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchTools();
  console.log(JSON.stringify(result, null, 2));
  console.log(describeTools(result));
}
