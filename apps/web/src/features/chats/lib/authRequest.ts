import { authServices } from '../../auth/services.ts';
import { accountSession } from '../../auth/session.ts';

/**
 * The product-call headers and URL (spec §7) for requests the JSON client does not make:
 * uploads with progress (XMLHttpRequest) and file downloads (blobs).
 */
export async function authorizedRequest(
  path: string,
  service: 'chats' | 'accounts' = 'chats',
): Promise<{ url: string; headers: Record<string, string> }> {
  const { config, auth } = authServices();
  const token = await auth.getIdToken().catch(() => null);
  const user = accountSession.getState().apiUser;
  const base = (service === 'chats' ? config.chatsManagerUrl : config.accountManagerUrl).replace(/\/+$/, '');
  const url = new URL(`${base}${path}`, window.location.origin);
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache' };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    headers['x-endpoint-api-userinfo'] = token;
  }
  if (user) {
    headers.Domain = user.domain;
    headers.Department = user.department;
    url.searchParams.set('domain', user.domain);
    url.searchParams.set('department', user.department);
    url.searchParams.set('user', user._id);
    url.searchParams.set('email', user._id);
  }
  return { url: url.href, headers };
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

/** A protected file's bytes. */
export async function fetchBlob(
  path: string,
  service: 'chats' | 'accounts' = 'chats',
): Promise<{ blob: Blob; response: Response }> {
  const { url, headers } = await authorizedRequest(path, service);
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`Download failed with status ${response.status}`);
  return { blob: await response.blob(), response };
}

/** Downloads a protected file (attachment, export) and hands it to the browser as a save. */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const { blob, response } = await fetchBlob(path);
  const name = dispositionFileName(response.headers.get('content-disposition'), fallbackName);
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
