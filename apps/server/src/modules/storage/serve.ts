import type { FastifyReply } from 'fastify';
import type { StoredObject } from './types.ts';

/** `attachment; filename="ascii"; filename*=UTF-8''…` (RFC 6266 / 5987) from any file name. */
export function contentDisposition(fileName: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = fileName.replace(/[\\/\u0000-\u001f\u007f"]/g, '_').trim() || 'download';
  const stripped = clean
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[%;]/g, '_')
    .trim();
  // A name that was all non-ASCII keeps at least a base name and its extension.
  const ascii = !stripped ? 'download' : stripped.startsWith('.') ? `download${stripped}` : stripped;
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Serves stored bytes as docs/ARCHITECTURE.md#uploads-and-stored-files says: always a download, never sniffed, and sandboxed should a
 * browser render it anyway.
 */
export function sendStoredObject(reply: FastifyReply, object: StoredObject, fileName: string): FastifyReply {
  const type =
    object.contentType.startsWith('text/') || object.contentType === 'application/json'
      ? `${object.contentType}; charset=utf-8`
      : object.contentType;
  return reply
    .header('content-type', type)
    .header('content-length', String(object.size))
    .header('content-disposition', contentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('cache-control', 'private, no-store')
    .send(object.body);
}
