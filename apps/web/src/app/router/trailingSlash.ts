/** `/users/` → `/users`; null when there is nothing to strip (including `/`). */
export function stripTrailingSlash(pathname: string): string | null {
  if (pathname === '/' || !pathname.endsWith('/')) return null;
  return pathname.replace(/\/+$/, '') || '/';
}
