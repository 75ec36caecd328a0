/** Leaves the app for another URL (an editor deep link, say). A module of its own so tests can stub it. */
export function openExternalUrl(url: string): void {
  window.location.href = url;
}
