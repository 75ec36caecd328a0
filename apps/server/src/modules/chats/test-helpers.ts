/** A `multipart/form-data` body with one file, serialised by the platform's own FormData. */
export async function multipartFile(
  fileName: string,
  contentType: string,
  data: Buffer | string,
  field = 'file',
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  form.append(field, new Blob([new Uint8Array(bytes)], { type: contentType }), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** The smallest valid PNG (1×1, transparent). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
