// Document bombs (issue 23): a few hundred kilobytes of DOCX or PDF that unpack to hundreds of
// megabytes, uploaded as knowledge to a running server. Each must end refused, the server's memory
// must stay within its bound while they are read, and other people's requests must not slow down.
// The server runs in its own process (bench/server-child.ts), so its RSS is read from /proc.
import { readFileSync } from 'node:fs';
import type { KnowledgeDocument, KnowledgeSource } from '@assistente/contracts';
import { flate, makeDocx, makePdf } from '../apps/server/src/test/knowledge/documents.ts';
import { startBenchServer } from './user-read.ts';

export interface DocumentBombsResult {
  bombs: Array<{ name: string; bytes: number; unpacksToMiB: number; status: string; error: string }>;
  rssMiB: { before: number; peak: number; growth: number };
  otherRequests: { samples: number; quietP99Ms: number; duringP99Ms: number };
  readForMs: number;
  budget: { maxRssGrowthMiB: number; maxP99Ms: number; ok: boolean };
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const MiB = 1024 * 1024;
const round = (n: number) => Math.round(n * 10) / 10;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

/** The process's resident set now, in MiB. */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/**
 * Reads the user's own record (a cached, authenticated read) `concurrency` at a time until `until`
 * resolves; the latency of each.
 */
async function readWhile(url: string, token: string, until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  until.finally(() => {
    done = true;
  });
  const loop = async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`read failed: ${res.status}`);
      times.push(performance.now() - t0);
    }
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
  return times;
}

export async function benchDocumentBombs(): Promise<DocumentBombsResult> {
  const server = await startBenchServer();
  try {
    const base = `http://127.0.0.1:${server.appPort}`;
    const { idToken } = server;
    const json = { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/integration/knowledge`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ kind: 'files', displayName: 'Bombs' }),
    });
    if (!created.ok) throw new Error(`creating the source failed: ${created.status} ${await created.text()}`);
    const source = (await created.json()) as KnowledgeSource;
    const userUrl = `${base}/api/v1/user/${encodeURIComponent(server.email)}`;

    const bombs = [
      {
        name: 'zip-bomb.docx',
        type: DOCX,
        unpacksTo: 300 * MiB,
        data: makeDocx('Bomb', ['x'], { deflate: true, padding: 300 * MiB }),
      },
      {
        name: 'lying-zip-bomb.docx',
        type: DOCX,
        unpacksTo: 300 * MiB,
        data: makeDocx('Bomb', ['x'], {
          deflate: true,
          padding: 300 * MiB,
          declare: (_n, size) => Math.min(size, 1024),
        }),
      },
      {
        name: 'flate-bomb.pdf',
        type: 'application/pdf',
        unpacksTo: 400 * MiB,
        data: makePdf([], { contents: { dict: '/Filter /FlateDecode', data: flate(400 * MiB) } }),
      },
    ];

    // Warm, then the quiet figure: the same reads with nothing else going on.
    await readWhile(userUrl, idToken, new Promise((r) => setTimeout(r, 1_000)));
    const quiet = await readWhile(userUrl, idToken, new Promise((r) => setTimeout(r, 4_000)));
    const before = rssMiB(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(server.pid));
    }, 20);

    const started = performance.now();
    const read = (async () => {
      for (const bomb of bombs) {
        const form = new FormData();
        form.append('files', new Blob([new Uint8Array(bomb.data)], { type: bomb.type }), bomb.name);
        const res = await fetch(`${base}/api/v1/integration/knowledge/${source.sourceId}/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${idToken}` },
          body: form,
        });
        if (res.status !== 201) throw new Error(`uploading ${bomb.name}: ${res.status} ${await res.text()}`);
      }
      for (;;) {
        const res = await fetch(`${base}/api/v1/integration/knowledge/${source.sourceId}/documents`, {
          headers: json,
        });
        const docs = (await res.json()) as KnowledgeDocument[];
        if (
          docs.length === bombs.length &&
          docs.every((d) => d.status !== 'pending' && d.status !== 'indexing')
        )
          return docs;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const during = await readWhile(userUrl, idToken, read);
    const docs = await read;
    const readForMs = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, rssMiB(server.pid));

    const quietP99 = pct(quiet, 99);
    const duringP99 = pct(during, 99);
    // "Unchanged" on a shared two-core machine: within half again the quiet p99, and 5 ms.
    const maxP99Ms = round(quietP99 * 1.5 + 5);
    const results = bombs.map((b) => {
      const doc = docs.find((d) => d.title === b.name.replace(/\.\w+$/, ''));
      return {
        name: b.name,
        bytes: b.data.length,
        unpacksToMiB: b.unpacksTo / MiB,
        status: doc?.status ?? 'missing',
        error: doc?.error ?? '',
      };
    });
    const growth = peak - before;
    return {
      bombs: results,
      rssMiB: { before: round(before), peak: round(peak), growth: round(growth) },
      otherRequests: { samples: during.length, quietP99Ms: round(quietP99), duringP99Ms: round(duringP99) },
      readForMs: Math.round(readForMs),
      budget: {
        maxRssGrowthMiB: 256,
        maxP99Ms,
        ok: results.every((r) => r.status === 'error') && growth <= 256 && duringP99 <= maxP99Ms,
      },
    };
  } finally {
    server.stop();
  }
}

export function describeDocumentBombs(r: DocumentBombsResult): string {
  const refused = r.bombs.filter((b) => b.status === 'error').length;
  return `Document bombs: ${refused} of ${r.bombs.length} refused (${r.bombs.map((b) => `${b.name} ${Math.round(b.bytes / 1024)} KB → ${b.unpacksToMiB} MiB: ${b.status}`).join('; ')}) in ${r.readForMs} ms; server RSS ${r.rssMiB.before} → peak ${r.rssMiB.peak} MiB, growth ${r.rssMiB.growth} MiB (budget ≤ ${r.budget.maxRssGrowthMiB}); other requests' p99 ${r.otherRequests.duringP99Ms} ms while reading vs ${r.otherRequests.quietP99Ms} ms quiet (budget ≤ ${r.budget.maxP99Ms} ms) ${r.budget.ok ? 'OK' : 'OVER BUDGET'}`;
}
