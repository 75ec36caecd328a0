// A Code Interpreter API on loopback, speaking LibreChat's protocol (`POST /upload` multipart,
// `POST /exec`, `GET /download/{session}/{file}`, the `X-API-Key` header) for the
// code_interpreter tests. It runs nothing: it reads the code for what a real run would print and
// save — each input file's row count, and a real PNG bar chart for `savefig('name.png')`.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { barChartPng } from './png.ts';

export interface CodeStandin {
  /** `http://127.0.0.1:<port>/v1` */
  url: string;
  apiKey: string;
  /** What `/exec` was asked, in order, with the names of the files it was given. */
  runs: Array<{
    lang: string;
    code: string;
    files: string[];
    userId: string | undefined;
    entityId: string | undefined;
  }>;
  /** Names of the files uploaded, in order. */
  uploads: string[];
  close(): Promise<void>;
}

export async function startCodeStandin(opts: { apiKey?: string } = {}): Promise<CodeStandin> {
  const apiKey = opts.apiKey ?? 'code-key-456';
  const runs: CodeStandin['runs'] = [];
  const uploads: string[] = [];
  /** Files by session, then id. */
  const sessions = new Map<string, Map<string, { name: string; data: Buffer; type: string }>>();
  const app = Fastify();
  await app.register(multipart);
  app.addHook('onRequest', async (req, reply) => {
    if (req.headers['x-api-key'] !== apiKey) return reply.code(401).send({ error: 'Invalid API key' });
  });

  app.post('/v1/upload', async (req) => {
    let entityId: string | undefined;
    let file: { name: string; data: Buffer; type: string } | undefined;
    for await (const part of req.parts()) {
      if (part.type === 'file')
        file = { name: part.filename, data: await part.toBuffer(), type: part.mimetype };
      else if (part.fieldname === 'entity_id') entityId = String(part.value);
    }
    if (!file) return { message: 'no file' };
    uploads.push(file.name);
    const session = randomUUID();
    const fileId = randomUUID().replace(/-/g, '').slice(0, 21);
    sessions.set(session, new Map([[fileId, file]]));
    return {
      message: 'success',
      session_id: session,
      entity_id: entityId,
      files: [{ fileId, filename: file.name }],
    };
  });

  app.post('/v1/exec', async (req, reply) => {
    const body = req.body as {
      lang: string;
      code: string;
      entity_id?: string;
      files?: Array<{ id: string; session_id: string; name: string }>;
    };
    const given = (body.files ?? []).map((f) => {
      const found = sessions.get(f.session_id)?.get(f.id);
      if (!found)
        throw Object.assign(new Error(`No file ${f.id} in session ${f.session_id}`), { statusCode: 400 });
      return found;
    });
    runs.push({
      lang: body.lang,
      code: body.code,
      files: given.map((f) => f.name),
      userId: req.headers['user-id'] as string | undefined,
      entityId: body.entity_id,
    });
    const session = randomUUID();
    const out = new Map<string, { name: string; data: Buffer; type: string }>();
    sessions.set(session, out);
    if (body.code.includes('raise ')) {
      return {
        session_id: session,
        stdout: '',
        stderr: 'Traceback (most recent call last):\nValueError: bad data',
        files: [],
      };
    }
    const csv = given.find((f) => f.name.endsWith('.csv'));
    const values = (csv?.data.toString('utf8').trim().split('\n').slice(1) ?? []).map((l) =>
      Number(l.split(',').pop()),
    );
    const stdout = [
      `ran ${body.lang}`,
      ...given.map((f) => `${f.name}: ${f.data.toString('utf8').trim().split('\n').length - 1} rows`),
      ...(values.length ? [`total: ${values.reduce((a, b) => a + b, 0)}`] : []),
    ].join('\n');
    for (const m of body.code.matchAll(/savefig\(['"]([\w.-]+\.png)['"]\)/g)) {
      out.set(randomUUID().slice(0, 21), {
        name: m[1] ?? 'chart.png',
        data: barChartPng(values.length ? values : [1]),
        type: 'image/png',
      });
    }
    for (const m of body.code.matchAll(/open\(['"]([\w.-]+\.exe)['"], *['"]wb['"]\)/g)) {
      out.set(randomUUID().slice(0, 21), {
        name: m[1] ?? 'x.exe',
        data: Buffer.from('MZ\x90\x00binary'),
        type: 'application/octet-stream',
      });
    }
    reply.header('content-type', 'application/json');
    return {
      session_id: session,
      stdout: `${stdout}\n`,
      stderr: '',
      files: [...out.entries()].map(([id, f]) => ({ id, name: f.name })),
    };
  });

  app.get('/v1/download/:session/:id', async (req, reply) => {
    const { session, id } = req.params as { session: string; id: string };
    const f = sessions.get(session)?.get(id);
    if (!f) return reply.code(404).send({ error: 'not found' });
    return reply.header('content-type', f.type).send(f.data);
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/v1`, apiKey, runs, uploads, close: () => app.close() };
}
