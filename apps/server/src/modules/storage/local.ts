import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { objectNotFound } from './errors.ts';
import { assertValidKey } from './keys.ts';
import type { ObjectMeta, Storage, StoredObject } from './types.ts';

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** A byte counter that fails the pipeline as soon as more than `max` bytes pass. */
function limitBytes(max: number, seen: { n: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen.n += chunk.length;
      if (seen.n > max) cb(new Error(`Object is larger than its declared size (${max} bytes)`));
      else cb(null, chunk);
    },
  });
}

/**
 * Files under `root` (`${DATA_DIR}/storage/<bucket>`), the bytes at `<key>` and the metadata beside
 * them at `<key>.meta.json`. Writes go to a temporary file first and are renamed into place, so a
 * reader never sees half a file.
 */
export function localStorage(root: string): Storage {
  const fileOf = (key: string) => {
    assertValidKey(key);
    return path.join(root, ...key.split('/'));
  };

  async function readMeta(file: string): Promise<ObjectMeta | undefined> {
    try {
      const [raw, info] = await Promise.all([readFile(`${file}.meta.json`, 'utf8'), stat(file)]);
      const parsed = JSON.parse(raw) as Partial<ObjectMeta>;
      return {
        contentType: typeof parsed.contentType === 'string' ? parsed.contentType : 'application/octet-stream',
        size: info.size,
      };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async function put(key: string, body: Readable | Buffer, meta: ObjectMeta): Promise<void> {
    const file = fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const seen = { n: 0 };
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, limitBytes(meta.size, seen), createWriteStream(tmp, { flags: 'wx' }));
      if (seen.n !== meta.size) throw new Error(`Stored ${seen.n} bytes, expected ${meta.size}`);
      await writeFile(`${file}.meta.json`, JSON.stringify({ contentType: meta.contentType }));
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  return {
    kind: 'local',

    put,

    async putFile(key, source, meta) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const { size } = await stat(source);
      if (size !== meta.size) throw new Error(`The file holds ${size} bytes, expected ${meta.size}`);
      await writeFile(`${file}.meta.json`, JSON.stringify({ contentType: meta.contentType }));
      try {
        await rename(source, file);
      } catch (err) {
        await rm(`${file}.meta.json`, { force: true });
        // Another disk (a spool outside the store's root): copied instead.
        if ((err as NodeJS.ErrnoException).code === 'EXDEV') return put(key, createReadStream(source), meta);
        throw err;
      }
    },

    async get(key): Promise<StoredObject> {
      const file = fileOf(key);
      const meta = await readMeta(file);
      if (!meta) throw objectNotFound();
      return { ...meta, body: createReadStream(file) };
    },

    async stat(key) {
      return readMeta(fileOf(key));
    },

    async delete(key) {
      const file = fileOf(key);
      await Promise.all([rm(file, { force: true }), rm(`${file}.meta.json`, { force: true })]);
    },
  };
}
