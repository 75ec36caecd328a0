import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Locale } from '@assistente/contracts';
import yazl from 'yazl';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { DataSubject } from '../accounts/data-subjects.ts';

/*
 * An export's ZIP, written as it is downloaded (docs/ARCHITECTURE.md#export-and-erasure): one entry
 * at a time, each added only once the one before has gone into the reply, so what the process holds
 * is one chat and a few buffers of a file, whatever the person has.
 */

/** What goes into one ZIP. */
export interface ZipPlan {
  exportId: string;
  scope: 'me' | 'user' | 'department';
  subjectId: string;
  createdAt: Date;
  people: readonly DataSubject[];
  /** A department's export: one folder a person. */
  folders: boolean;
  /** The reader's language and time zone, for the Markdown. */
  locale: Locale;
  timeZone?: string | undefined;
}

/** What one person's part holds, for the manifest. */
interface Counts {
  chats: number;
  messages: number;
  files: number;
  fileBytes: number;
  prompts: number;
  memories: number;
  shares: number;
}

/** A name safe as one path segment of every file system, never empty. */
export function safeSegment(name: string, fallback = 'file'): string {
  const clean = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 120)
    .trim();
  return clean || fallback;
}

/** `name`, or `name (2)`, … : never a second entry of the same path. */
function uniqueIn(taken: Set<string>, name: string): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const dot = name.lastIndexOf('.');
    candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The ZIP of `plan`, as a stream to send. Reads start when the stream is read; `signal` (the client
 * went away) stops them. A failure midway ends the stream with the error: the download breaks
 * rather than ending in a ZIP that looks whole.
 */
export function exportZip(ctx: AppContext, plan: ZipPlan, signal: AbortSignal): Readable {
  const zip = new yazl.ZipFile();
  // A PassThrough, typed by yazl as the older stream interface.
  const out = zip.outputStream as Readable;
  const stopped = new Promise<never>((_, reject) => {
    const stop = () => reject(new Error('export download ended'));
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });
    out.once('close', stop);
  });
  stopped.catch(() => {});

  /** Adds one entry and waits until yazl has read all of it (so into the reply, give or take its buffers). */
  const add = async (name: string, body: Readable, compress: boolean) => {
    zip.addReadStream(body, name, { compress, mtime: plan.createdAt });
    try {
      await Promise.race([finished(body), stopped]);
    } catch (err) {
      body.destroy();
      throw err;
    }
  };
  const addBuffer = (name: string, bytes: Buffer) => add(name, Readable.from([bytes]), true);

  const write = async () => {
    const exportedAt = new Date();
    const people: Array<DataSubject & { folder: string; counts: Counts; missingFiles: string[] }> = [];
    const folders = new Set<string>();
    for (const person of plan.people) {
      const folder = plan.folders ? `${uniqueIn(folders, safeSegment(person.email, person.id))}/` : '';
      const counts: Counts = {
        chats: 0,
        messages: 0,
        files: 0,
        fileBytes: 0,
        prompts: 0,
        memories: 0,
        shares: 0,
      };
      /** Files whose row says stored but the store has not: named in the manifest, not fatal. */
      const missingFiles: string[] = [];
      const chats = ctx.services.chats.exportChatsOf(
        { userId: person.id, locale: plan.locale, timeZone: plan.timeZone },
        exportedAt,
      );
      for await (const chat of chats) {
        await addBuffer(`${folder}chats/${chat.baseName}.json`, Buffer.from(chat.json));
        await addBuffer(`${folder}chats/${chat.baseName}.md`, Buffer.from(chat.markdown));
        counts.chats++;
        counts.messages += chat.messages;
        const names = new Set<string>();
        for (const file of chat.files) {
          const path = `${folder}files/${chat.baseName}/${uniqueIn(names, safeSegment(file.name))}`;
          const body = await ctx.services.chats.openOwnerFile(file).catch((err: unknown) => {
            if (err instanceof AppError && err.code === 'NOT_FOUND') return undefined;
            throw err;
          });
          if (!body) {
            missingFiles.push(path);
            continue;
          }
          // Stored files are mostly compressed already (images, PDFs, office files): stored as they are.
          await add(path, body, false);
          counts.files++;
          counts.fileBytes += file.size;
        }
      }
      const [prompts, memories, shares] = await Promise.all([
        ctx.services.prompts.authoredBy(person.id),
        ctx.services.memory.memoriesOf(person.id),
        ctx.services.chats.sharesOf(person.id),
      ]);
      await addBuffer(`${folder}prompts.json`, json(prompts));
      await addBuffer(`${folder}memories.json`, json(memories));
      await addBuffer(`${folder}shares.json`, json(shares));
      Object.assign(counts, { prompts: prompts.length, memories: memories.length, shares: shares.length });
      people.push({ ...person, folder, counts, missingFiles });
    }
    const totals = people.reduce<Counts>(
      (sum, p) => {
        for (const k of Object.keys(sum) as Array<keyof Counts>) sum[k] += p.counts[k];
        return sum;
      },
      { chats: 0, messages: 0, files: 0, fileBytes: 0, prompts: 0, memories: 0, shares: 0 },
    );
    await addBuffer(
      'manifest.json',
      json({
        version: 1,
        exportId: plan.exportId,
        scope: plan.scope,
        subjectId: plan.subjectId,
        createdAt: plan.createdAt.toISOString(),
        exportedAt: exportedAt.toISOString(),
        people,
        totals,
      }),
    );
    zip.end();
  };

  write().catch((err: unknown) => {
    if (signal.aborted || out.destroyed) return;
    ctx.log.error({ err, exportId: plan.exportId }, 'governance: an export failed midway');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}
