import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

/** The credentials the stand-in accepts (its requests must be signed with this key id). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'TESTKEY', secretAccessKey: 'testsecret' };

export interface S3Standin {
  endpoint: string;
  requests: IncomingMessage[];
  /** How many objects it keeps. */
  size(): number;
  /** Stops listening and drops open connections, as a store that went down (objects are kept). */
  stop(): Promise<void>;
  /** Listens again on the same port, as the store coming back. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/**
 * A minimal server speaking the part of the S3 REST protocol the product uses (path style):
 * HeadBucket, PutObject, GetObject, HeadObject, DeleteObject, over a real socket. Requests must be
 * signed (SigV4) with S3_TEST_CREDENTIALS; keys under `denied/` answer 403 AccessDenied.
 */
export async function startS3Standin(): Promise<S3Standin> {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const requests: IncomingMessage[] = [];
  const handle = async (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    requests.push(req);
    const body = await buffer(req);
    const url = new URL(req.url ?? '/', 'http://x');
    const objectPath = decodeURIComponent(url.pathname);
    if (!req.headers.authorization?.startsWith('AWS4-HMAC-SHA256 Credential=TESTKEY/')) {
      res.writeHead(403, { 'content-type': 'application/xml' }).end(xmlError('AccessDenied', 'unsigned'));
      return;
    }
    if (objectPath.includes('/denied/')) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(req.method === 'HEAD' ? undefined : xmlError('AccessDenied', 'Access Denied'));
      return;
    }
    // `/bucket` alone: HeadBucket. Every bucket exists.
    if (req.method === 'HEAD' && !objectPath.slice(1).replace(/\/$/, '').includes('/')) {
      res.writeHead(200).end();
      return;
    }
    const found = objects.get(objectPath);
    switch (req.method) {
      case 'PUT':
        objects.set(objectPath, { body, contentType: req.headers['content-type'] ?? 'binary/octet-stream' });
        res.writeHead(200, { etag: '"x"' }).end();
        return;
      case 'GET':
      case 'HEAD':
        if (!found) {
          res.writeHead(404, { 'content-type': 'application/xml' });
          res.end(
            req.method === 'HEAD' ? undefined : xmlError('NoSuchKey', 'The specified key does not exist.'),
          );
          return;
        }
        res.writeHead(200, {
          'content-type': found.contentType,
          'content-length': String(found.body.length),
          etag: '"x"',
        });
        res.end(req.method === 'HEAD' ? undefined : found.body);
        return;
      case 'DELETE':
        objects.delete(objectPath);
        res.writeHead(204).end();
        return;
      default:
        res.writeHead(405).end();
    }
  };

  let server: Server | undefined;
  const listen = async (port: number) => {
    const s = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
    server = s;
    return (s.address() as AddressInfo).port;
  };
  const stop = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  const port = await listen(0);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    size: () => objects.size,
    stop,
    restart: async () => {
      await listen(port);
    },
    close: stop,
  };
}
