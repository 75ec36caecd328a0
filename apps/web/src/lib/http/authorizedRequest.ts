import { callerHeaders, type RequestContext, withUserHints } from './client.ts';

/** Which product service a request goes to; each has its own base URL in the runtime config. */
export type ProductService = 'chats' | 'accounts';

export interface AuthorizedRequest {
  url: string;
  headers: Record<string, string>;
}

/** Where a service lives and who is calling, resolved per request (the token may have been refreshed). */
type RequestTarget = (service: ProductService) => Promise<{ baseUrl: string; context: RequestContext }>;

/**
 * The product-call headers and URL (docs/ARCHITECTURE.md#calling-the-api) for a request the API
 * client does not make: uploads with progress (XMLHttpRequest) and file downloads (blobs).
 */
export function authorizedRequestFor(
  baseUrl: string,
  path: string,
  context: RequestContext,
): AuthorizedRequest {
  const url = withUserHints(
    new URL(`${baseUrl.replace(/\/+$/, '')}${path}`, window.location.origin),
    context.user,
  );
  return { url: url.href, headers: callerHeaders(context) };
}

/** The file name of a `Content-Disposition` header (RFC 6266 `filename*` first). */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || fallback;
}

/** Hands bytes the page fetched to the browser as a saved file named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** Authorized requests, blob reads and downloads bound to one way of finding the caller. */
export function createAuthorizedRequests(target: RequestTarget) {
  async function authorizedRequest(
    path: string,
    service: ProductService = 'chats',
  ): Promise<AuthorizedRequest> {
    const { baseUrl, context } = await target(service);
    return authorizedRequestFor(baseUrl, path, context);
  }

  /** A protected file's bytes. */
  async function fetchBlob(
    path: string,
    service: ProductService = 'chats',
  ): Promise<{ blob: Blob; response: Response }> {
    const { url, headers } = await authorizedRequest(path, service);
    const response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`Download failed with status ${response.status}`);
    return { blob: await response.blob(), response };
  }

  /** Downloads a protected file (attachment, export) and hands it to the browser as a save. */
  async function downloadFile(
    path: string,
    fallbackName: string,
    service: ProductService = 'chats',
  ): Promise<void> {
    const { blob, response } = await fetchBlob(path, service);
    saveBlob(blob, dispositionFileName(response.headers.get('content-disposition'), fallbackName));
  }

  return { authorizedRequest, fetchBlob, downloadFile };
}
