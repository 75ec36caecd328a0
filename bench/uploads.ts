// Memory under uploads (issue 30): 50 chat attachments of 19 MiB sent at once to one server must
// grow its resident memory by at most 64 MiB, and all be stored. The server is the compiled one, as
// `npm start` runs it, in its own process, so its RSS (read from /proc) is its own alone.
// Run alone: `node scripts/build-server.mjs && node --import tsx bench/uploads.ts`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Attachment, Chat } from '@assistente/contracts';
import { spawnServerProcess } from '../apps/server/src/test/server-process.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 50);
const FILE_BYTES = 19 * 1024 * 1024;
const MAX_GROWTH_MIB = 64;
/** How often the server's RSS is read while the uploads run. */
const SAMPLE_MS = 20;
/** How long the started server is left alone before its idle memory is read. */
const SETTLE_MS = 3_000;
const BOUNDARY = 'assistente-bench-uploads';
const email = 'uploads@bench.test';
const password = 'uploads-password-Q9x!';
const MiB = 1024 * 1024;
const round = (n: number) => Math.round(n * 10) / 10;

export interface UploadsBench {
  uploads: number;
  fileMiB: number;
  /** Answers 201, and the files of that size found in the chats bucket afterwards. */
  stored: { answered201: number; filesOnDisk: number };
  /** Files under the storage root that are neither a stored object nor its metadata. */
  leftovers: number;
  rssMiB: { idle: number; peak: number; growth: number };
  samples: number;
  tookMs: number;
  budget: { maxGrowthMiB: number; ok: boolean };
}

/** The process's resident set now, in MiB. */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** Every file under `dir`, with its size. */
function filesUnder(dir: string): Array<{ file: string; size: number }> {
  const out: Array<{ file: string; size: number }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push({ file, size: statSync(file).size });
  }
  return out;
}

/**
 * One multipart upload over its own socket: the part headers, `data` and the closing boundary,
 * written from the one shared buffer (the bench's memory stays flat whatever the count).
 */
function upload(
  url: URL,
  token: string,
  name: string,
  data: Buffer,
  agent: Agent,
): Promise<{ status: number; body: string }> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(head.length + data.length + tail.length),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(data);
    req.end(tail);
  });
}

export async function benchUploads(): Promise<UploadsBench> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-bench-uploads-'));
  const server = await spawnServerProcess(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      PUBLIC_URL: '',
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      // Room for every upload: what is measured is reading and storing them, not the quota.
      STORAGE_QUOTA_BYTES: String(UPLOADS * FILE_BYTES * 2),
    },
    'compiled',
  );
  const { child, base } = server;
  const agent = new Agent({ keepAlive: false, maxSockets: UPLOADS });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
      const ready = await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const signIn = await fetch(`${base}/identity/v1/accounts:signInWithPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    });
    if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const { idToken } = (await signIn.json()) as { idToken: string };
    const created = await fetch(`${base}/api/v1/chats`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    if (created.status !== 201) throw new Error(`creating a chat: ${created.status} ${await created.text()}`);
    const chat = (await created.json()) as Chat;
    const url = new URL(`${base}/api/v1/chats/${chat.chatId}/attachments`);

    // Random bytes behind a PDF signature: an allowed type whose content check reads only its start,
    // and nothing a compressing layer could shrink.
    const data = randomBytes(FILE_BYTES);
    data.write('%PDF-1.7\n', 0, 'latin1');

    // One small upload first, so what is measured is not the first use of the route's code.
    const warm = await upload(url, idToken, 'warm.pdf', data.subarray(0, 64 * 1024), agent);
    if (warm.status !== 201) throw new Error(`the warm-up upload answered ${warm.status}: ${warm.body}`);
    await new Promise((r) => setTimeout(r, SETTLE_MS));

    const pid = child.pid ?? 0;
    const idle = rssMiB(pid);
    let peak = idle;
    let samples = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
      samples++;
    }, SAMPLE_MS);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: UPLOADS }, (_, i) => upload(url, idToken, `file-${i}.pdf`, data, agent)),
    ).finally(() => clearInterval(sampler));
    const tookMs = performance.now() - started;
    peak = Math.max(peak, rssMiB(pid));

    const answered201 = answers.filter((a) => a.status === 201).length;
    const failed = answers.find((a) => a.status !== 201);
    if (failed) console.error(`an upload answered ${failed.status}: ${failed.body.slice(0, 300)}`);
    for (const a of answers.filter((x) => x.status === 201)) {
      if ((JSON.parse(a.body) as Attachment).size !== FILE_BYTES)
        throw new Error('an upload stored a wrong size');
    }
    // Every file under the storage root is a stored object of the chats bucket or its metadata;
    // anything else (a spool or temporary file) was left behind.
    const storage = path.join(dataDir, 'storage');
    const bucket = path.join(storage, 'chats') + path.sep;
    const all = filesUnder(storage);
    const metadata = all.filter((f) => f.file.endsWith('.meta.json'));
    const objects = all.filter(
      (f) => f.file.startsWith(bucket) && !f.file.endsWith('.meta.json') && !f.file.endsWith('.tmp'),
    );
    const filesOnDisk = objects.filter((f) => f.size === FILE_BYTES).length;
    const leftovers = all.length - objects.length - metadata.length;
    const growth = round(peak - idle);
    return {
      uploads: UPLOADS,
      fileMiB: round(FILE_BYTES / MiB),
      stored: { answered201, filesOnDisk },
      leftovers,
      rssMiB: { idle: round(idle), peak: round(peak), growth },
      samples,
      tookMs: Math.round(tookMs),
      budget: {
        maxGrowthMiB: MAX_GROWTH_MIB,
        ok: growth <= MAX_GROWTH_MIB && answered201 === UPLOADS && filesOnDisk === UPLOADS && leftovers === 0,
      },
    };
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await server.exited();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function describeUploads(r: UploadsBench): string {
  return `Uploads: ${r.uploads} × ${r.fileMiB} MiB chat attachments at once: ${r.stored.answered201} answered 201, ${r.stored.filesOnDisk} stored, ${r.leftovers} left over, in ${r.tookMs} ms; server RSS ${r.rssMiB.idle} → peak ${r.rssMiB.peak} MiB, growth ${r.rssMiB.growth} MiB (budget ≤ ${r.budget.maxGrowthMiB}; ${r.samples} samples) ${r.budget.ok ? 'OK' : 'OVER BUDGET'}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchUploads();
  console.log(describeUploads(result));
  console.log(JSON.stringify(result, null, 2));
  if (!result.budget.ok) process.exitCode = 1;
}
