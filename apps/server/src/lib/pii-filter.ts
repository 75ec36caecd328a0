import { type PiiKind, PiiKinds, type PiiSettings } from '@assistente/contracts';
import { AppError } from './errors.ts';
import { findPii, redactPii } from './pii.ts';

/**
 * A domain's PII filter as the entry points apply it (docs/ARCHITECTURE.md#pii-filter): what a
 * person sends passes through `text` (or `json`, for a tool call's arguments) before it reaches a
 * model or the database. Built from the settings once; applying it is synchronous.
 */
export interface PiiFilter {
  readonly settings: PiiSettings;
  /**
   * `text` as it may go on: unchanged when the filter is off or finds nothing, each match replaced
   * by its kind (`[CPF]`) in redact mode; in block mode a match refuses it with PII_BLOCKED.
   */
  text(text: string): string;
  /** The same over every string (and number) of a JSON value, its shape kept. */
  json<T>(value: T): T;
  /** `text` redacted whenever the filter is on, block mode too: what is kept of something refused. */
  redact(text: string): string;
}

/** The filter of a domain that never set one. */
export const PII_OFF: PiiSettings = { mode: 'off', kinds: [...PiiKinds] };

/** PII_BLOCKED naming the kinds found (in `PiiKinds` order), never the text that held them. */
export function piiBlocked(found: Iterable<PiiKind>): AppError {
  const set = new Set(found);
  const kinds = PiiKinds.filter((k) => set.has(k));
  return new AppError(
    'PII_BLOCKED',
    `Your organisation does not allow sending this: it contains ${kinds.join(', ')}.`,
    { kinds },
  );
}

/** The kinds a PII_BLOCKED refusal names; undefined for any other error. */
export function blockedKinds(err: unknown): PiiKind[] | undefined {
  if (!(err instanceof AppError) || err.code !== 'PII_BLOCKED') return undefined;
  return (err.details as { kinds?: PiiKind[] } | undefined)?.kinds;
}

/** `value` with each string `f` changed replaced; numbers are read as their digits. */
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (typeof value === 'number') {
    const digits = String(value);
    const out = f(digits);
    return out === digits ? value : out;
  }
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}

export function piiFilter(settings: PiiSettings): PiiFilter {
  const { mode, kinds } = settings;
  if (mode === 'off') return { settings, text: (t) => t, json: (v) => v, redact: (t) => t };
  const redact = (t: string) => redactPii(t, kinds).text;
  if (mode === 'redact')
    return { settings, text: redact, json: (v) => mapStrings(v, redact) as typeof v, redact };
  return {
    settings,
    redact,
    text(t) {
      const found = findPii(t, kinds);
      if (found.length > 0) throw piiBlocked(found.map((m) => m.kind));
      return t;
    },
    json(v) {
      // Every string is read before refusing, so the refusal names every kind the value holds.
      const found = new Set<PiiKind>();
      mapStrings(v, (s) => {
        for (const m of findPii(s, kinds)) found.add(m.kind);
        return s;
      });
      if (found.size > 0) throw piiBlocked(found);
      return v;
    },
  };
}

/**
 * A tool call's arguments as they may run and be kept (docs/ARCHITECTURE.md#pii-filter): redacted
 * unless the filter is off. In block mode `blocked` names the kinds found: that call must not run,
 * and what is kept of it is the redacted copy.
 */
export function screenToolInput(filter: PiiFilter, input: unknown): { input: unknown; blocked?: PiiKind[] } {
  try {
    return { input: filter.json(input) };
  } catch (err) {
    const blocked = blockedKinds(err);
    if (!blocked) throw err;
    return { input: mapStrings(input, filter.redact), blocked };
  }
}

/** What the model reads for a call the filter refused: why, and what to do instead. */
export const blockedToolOutput = (kinds: readonly PiiKind[]) =>
  `Refused by the organisation's data filter: the arguments contain ${kinds.join(', ')}. Call the tool again without them.`;
