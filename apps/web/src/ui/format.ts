/** A date and time in the interface language (`12 de mar. de 2026, 14:05`); '—' for none. */
export function formatDateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** "5 minutes ago" style, in the interface language. */
export function formatRelative(iso: string, locale: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  if (abs < 30 * 86_400) return format.format(Math.round(seconds / 86_400), 'day');
  return formatDateTime(iso, locale);
}

const KB = 1024;
const MB = 1024 * 1024;

/** A file size in the interface language (`812 bytes`, `4,2 kB`, `2,5 MB` in pt-BR). */
export function formatSize(bytes: number, locale: string): string {
  const [value, unit] =
    bytes < KB ? [bytes, 'byte'] : bytes < MB ? [bytes / KB, 'kilobyte'] : [bytes / MB, 'megabyte'];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    // The short byte is "byte" in English even for many: the long form is as short and right.
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: value < 10 ? 1 : 0,
  }).format(value);
}
