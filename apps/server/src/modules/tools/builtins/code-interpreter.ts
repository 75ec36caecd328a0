import { type Attachment, BuiltinLimits } from '@assistente/contracts';
import { AppError } from '../../../lib/errors.ts';
import { capOutput, type ToolOutput } from '../connections.ts';

/*
 * `code_interpreter` (docs/ARCHITECTURE.md#built-in-tools): code runs at a LibreChat-compatible
 * Code Interpreter API (CODE_INTERPRETER_URL), never in this process. The chat's files are
 * uploaded first (`POST /upload`), the code runs with them (`POST /exec`), and the files it made
 * are downloaded (`GET /download/{session}/{file}`) and kept as the chat's attachments.
 */

/** A chat's files as the tool reads them, and where a file it made is kept. */
export interface ToolFiles {
  inputs(max: number): Promise<Array<{ name: string; contentType: string; data: Buffer }>>;
  save(name: string, contentType: string | undefined, data: Buffer): Promise<Attachment>;
}

export interface CodeApi {
  url: string;
  apiKey: string;
  /** Who runs it, for the API's own accounting and isolation. */
  userId: string;
  /** The chat: the API's `entity_id`, grouping the uploads of one conversation. */
  entityId: string;
}

export const CODE_LANGUAGES = [
  'py',
  'js',
  'ts',
  'r',
  'go',
  'rs',
  'java',
  'php',
  'c',
  'cpp',
  'd',
  'f90',
] as const;

export class CodeApiFailed extends Error {
  override name = 'CodeApiFailed';
}

const base = (url: string) => url.replace(/\/+$/, '');

async function failure(res: Response, what: string): Promise<CodeApiFailed> {
  const body = (await res.text().catch(() => '')).slice(0, 300);
  if (res.status === 401 || res.status === 403) {
    return new CodeApiFailed(`The Code Interpreter API refused the key while ${what} (${res.status}).`);
  }
  return new CodeApiFailed(
    `The Code Interpreter API answered ${res.status} while ${what}${body ? `: ${body}` : '.'}`,
  );
}

interface FileRef {
  id: string;
  session_id: string;
  name: string;
}

/** Uploads one of the chat's files; its reference for `/exec`. */
async function upload(
  api: CodeApi,
  file: { name: string; contentType: string; data: Buffer },
  signal: AbortSignal,
) {
  const form = new FormData();
  form.append('entity_id', api.entityId);
  form.append('file', new Blob([new Uint8Array(file.data)], { type: file.contentType }), file.name);
  const res = await fetch(`${base(api.url)}/upload`, {
    method: 'POST',
    headers: { 'x-api-key': api.apiKey, 'user-id': api.userId, 'user-agent': 'Assistente' },
    body: form,
    signal,
  });
  if (!res.ok) throw await failure(res, `uploading ${file.name}`);
  const body = (await res.json()) as {
    message?: string;
    session_id?: string;
    files?: Array<{ fileId?: string; filename?: string }>;
  };
  const f = body.files?.[0];
  if (body.message !== 'success' || !body.session_id || !f?.fileId) {
    throw new CodeApiFailed(`The Code Interpreter API did not take ${file.name}.`);
  }
  return { id: f.fileId, session_id: body.session_id, name: f.filename ?? file.name } satisfies FileRef;
}

/** The bytes of a file the run made, refused past `max`. */
async function download(
  api: CodeApi,
  session: string,
  id: string,
  max: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const res = await fetch(
    `${base(api.url)}/download/${encodeURIComponent(session)}/${encodeURIComponent(id)}`,
    {
      headers: { 'x-api-key': api.apiKey, 'user-agent': 'Assistente' },
      signal,
    },
  );
  if (!res.ok) throw await failure(res, 'downloading a file');
  const size = Number(res.headers.get('content-length') ?? 0);
  if (size > max) {
    await res.body?.cancel().catch(() => {});
    throw new CodeApiFailed(`it is larger than ${Math.round(max / 1_000_000)} MB`);
  }
  const data = Buffer.from(await res.arrayBuffer());
  if (data.length > max) throw new CodeApiFailed(`it is larger than ${Math.round(max / 1_000_000)} MB`);
  return data;
}

/** Runs the model's code with the chat's files; what it printed, and the files it made kept. */
export async function runCode(
  api: CodeApi,
  files: ToolFiles,
  input: { lang: string; code: string; args?: string[] },
  maxFileBytes: number,
  signal: AbortSignal,
): Promise<ToolOutput> {
  const inputs = await files.inputs(BuiltinLimits.codeFiles);
  const refs: FileRef[] = [];
  for (const f of inputs) refs.push(await upload(api, f, signal));
  const res = await fetch(`${base(api.url)}/exec`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': api.apiKey,
      'user-id': api.userId,
      'user-agent': 'Assistente',
    },
    body: JSON.stringify({
      lang: input.lang,
      code: input.code,
      ...(input.args?.length ? { args: input.args } : {}),
      entity_id: api.entityId,
      ...(refs.length > 0 ? { files: refs } : {}),
    }),
    signal,
  });
  if (!res.ok) throw await failure(res, 'running the code');
  const run = (await res.json()) as {
    stdout?: string;
    stderr?: string;
    session_id?: string;
    files?: Array<{ id?: string; name?: string }>;
  };

  const given = new Set(inputs.map((f) => f.name));
  const made = (run.files ?? []).filter((f) => f.id && f.name && !given.has(f.name));
  const kept: Attachment[] = [];
  const notes: string[] = [];
  for (const f of made.slice(0, BuiltinLimits.codeFiles)) {
    const name = f.name?.split('/').pop() ?? 'file';
    try {
      const data = await download(api, run.session_id ?? '', f.id ?? '', maxFileBytes, signal);
      kept.push(await files.save(name, undefined, data));
    } catch (err) {
      if (signal.aborted) throw err;
      const why = err instanceof AppError || err instanceof CodeApiFailed ? err.message : String(err);
      notes.push(`${name} was not kept: ${why}`);
    }
  }
  if (made.length > BuiltinLimits.codeFiles) {
    notes.push(`Only the first ${BuiltinLimits.codeFiles} of ${made.length} files were kept.`);
  }

  const parts: string[] = [];
  parts.push(run.stdout ? `stdout:\n${run.stdout}` : 'stdout: (empty — print what you want to see)');
  if (run.stderr) parts.push(`stderr:\n${run.stderr}`);
  if (inputs.length > 0)
    parts.push(`Files the code had in /mnt/data/: ${inputs.map((f) => f.name).join(', ')}`);
  if (kept.length > 0) {
    parts.push(
      `Files made, already shown to the person (do not link them): ${kept.map((a) => a.name).join(', ')}`,
    );
  }
  parts.push(...notes);
  return {
    text: capOutput(parts.join('\n\n')),
    // Code that ends with only an error wrote nothing useful: the model reads it as a failure.
    isError: !run.stdout && !!run.stderr && kept.length === 0,
    ...(kept.length > 0 ? { files: kept } : {}),
  };
}
