/** Reads one cookie from a `document.cookie`-style string. */
export function getCookie(name: string, cookieString: string = readDocumentCookie()): string | null {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

export interface CookieOptions {
  maxAgeDays: number;
  sameSite?: 'Lax' | 'Strict' | 'None';
  path?: string;
}

/** Serialises a cookie for `document.cookie`. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const maxAge = Math.round(options.maxAgeDays * 24 * 60 * 60);
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${maxAge}`,
    `Path=${options.path ?? '/'}`,
    `SameSite=${options.sameSite ?? 'Lax'}`,
  ];
  if (options.sameSite === 'None' || (typeof location !== 'undefined' && location.protocol === 'https:')) {
    parts.push('Secure');
  }
  return parts.join('; ');
}

export function setCookie(name: string, value: string, options: CookieOptions): void {
  if (typeof document === 'undefined') return;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every supported browser
  document.cookie = serializeCookie(name, value, options);
}

function readDocumentCookie(): string {
  return typeof document === 'undefined' ? '' : document.cookie;
}
