/**
 * A tiny translator in place of i18next + react-i18next, which cost ~18 KB of gzipped JavaScript
 * on /auth/login (its budget is 150 KB) for features the app does not use. It does what the app
 * needs: dotted keys into the nested `locales/*.json`, `{{var}}` interpolation (no escaping: React
 * escapes), lazily loaded languages, and a fallback to the reference language's texts.
 *
 * A language's texts come in parts (see parts.ts) so the login page does not download the texts
 * of every signed-in screen: the first part always loads, the others when asked for
 * (`loadAllParts`) or when a key is not found in what has loaded so far.
 */

export type Messages = { [key: string]: string | Messages };
export type TVars = Readonly<Record<string, unknown>>;
export type TFunction = (key: string, vars?: TVars) => string;

/** What a component sees: the current language and its `t`; a new object after every change. */
export interface TranslatorState {
  readonly language: string;
  readonly t: TFunction;
}

export interface TranslatorOptions {
  /** Loads one part of one language's texts. */
  load(language: string, part: string): Promise<Messages>;
  /** The parts of a language's texts; the first is loaded with the language, the rest on demand. */
  parts: readonly [string, ...string[]];
  /** The reference language: keys missing from a language are looked up there. */
  fallback: string;
  /** The language reported before any has been loaded. */
  initial?: string;
  /** Told about each missing key once per language (the app does it in development only). */
  onMissingKey?: (key: string, language: string) => void;
}

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** Looks up a dotted key (`pages_login.email`); anything but a string is a miss. */
export function lookup(messages: Messages | undefined, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Replaces `{{name}}` with `vars.name`; a placeholder without a value stays as written. */
export function interpolate(text: string, vars: TVars | undefined): string {
  if (!vars || !text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = vars[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

export interface Translator {
  /** The current language. */
  readonly language: string;
  /** The current state; stable until the language or the loaded texts change. */
  getState(): TranslatorState;
  subscribe(listener: () => void): () => void;
  /** Translates with the current language. */
  t: TFunction;
  /**
   * Loads a language's wanted parts (once), and `more` parts from now on, and switches to it; when
   * calls overlap, the last wins.
   */
  changeLanguage(language: string, more?: readonly string[]): Promise<void>;
  /** Loads every part of the current language's texts, and of every language switched to later. */
  loadAllParts(): Promise<void>;
  /** Loads these parts of the current language's texts, and of every language switched to later. */
  loadParts(which: readonly string[]): Promise<void>;
}

/** One part's texts added to a language's: a section two parts share gets the keys of both. */
function merge(into: Messages | undefined, more: Messages): Messages {
  const merged = { ...into };
  for (const [section, value] of Object.entries(more)) {
    const had = merged[section];
    merged[section] = typeof had === 'object' && typeof value === 'object' ? { ...had, ...value } : value;
  }
  return merged;
}

// Closures rather than a class: minified, their names shrink; private members' would not.
export function createTranslator(options: TranslatorOptions): Translator {
  const { parts, fallback, onMissingKey } = options;
  /** Loaded texts by language: parts hold disjoint keys (a split section's, parts.ts, one level down). */
  const texts = new Map<string, Messages>();
  const loaded = new Set<string>();
  const loading = new Map<string, Promise<void>>();
  const listeners = new Set<() => void>();
  const reported = new Set<string>();
  let wanted: readonly string[] = parts.slice(0, 1);
  let requested = 0;
  /** Bumped whenever texts arrive: a state made before is stale. */
  let revision = 0;
  let stateRevision = -1;

  const ensurePart = (language: string, part: string): Promise<void> => {
    const id = `${language}/${part}`;
    if (loaded.has(id)) return Promise.resolve();
    let pending = loading.get(id);
    if (!pending) {
      pending = options.load(language, part).then(
        (messages) => {
          texts.set(language, merge(texts.get(language), messages));
          loaded.add(id);
          loading.delete(id);
          revision++;
        },
        (error: unknown) => {
          loading.delete(id);
          throw error;
        },
      );
      loading.set(id, pending);
    }
    return pending;
  };

  const ensure = (language: string, which: readonly string[]) =>
    Promise.all(which.map((part) => ensurePart(language, part)));

  const hasAllParts = (language: string) => parts.every((part) => loaded.has(`${language}/${part}`));

  const refresh = (language: string) => {
    if (language === current.language && stateRevision === revision) return;
    current = stateFor(language);
    stateRevision = revision;
    for (const listener of [...listeners]) listener();
  };

  /**
   * Starts loading the parts of `language` not loaded yet, then re-renders `shown`; the key
   * stands in meanwhile. False when there is nothing left to load.
   */
  const loadRest = (language: string, shown: string): boolean => {
    if (hasAllParts(language)) return false;
    ensure(language, parts).then(
      () => {
        if (current.language === shown) refresh(shown);
      },
      () => undefined,
    );
    return true;
  };

  const fromFallback = (language: string, key: string): string | undefined => {
    if (language === fallback || !hasAllParts(language)) return undefined;
    const text = lookup(texts.get(fallback), key);
    if (text === undefined) loadRest(fallback, language);
    return text;
  };

  const resolve = (language: string, key: string): string => {
    // Before a language's first texts arrive every key misses; changeLanguage is on its way.
    if (!texts.has(language)) return key;
    const text = lookup(texts.get(language), key) ?? fromFallback(language, key);
    if (text !== undefined) return text;
    const id = `${language}\u0000${key}`;
    if (!loadRest(language, language) && onMissingKey && !reported.has(id)) {
      reported.add(id);
      onMissingKey(key, language);
    }
    return key;
  };

  /**
   * With a numeric `count`, the language's plural form of the key first (`key_one`, …: CLDR
   * categories, as i18next names them); the key itself is the general form. Zero takes the general
   * form: "0 páginas", as Brazilians write it, though CLDR counts 0 as `one` in Portuguese.
   */
  const plural = (language: string, key: string, vars: TVars | undefined): string | undefined => {
    const count = vars?.count;
    if (typeof count !== 'number' || count === 0) return undefined;
    const form = `${key}_${new Intl.PluralRules(language).select(count)}`;
    return lookup(texts.get(language), form) ?? lookup(texts.get(fallback), form);
  };

  function stateFor(language: string): TranslatorState {
    return {
      language,
      t: (key, vars) => interpolate(plural(language, key, vars) ?? resolve(language, key), vars),
    };
  }

  let current = stateFor(options.initial ?? fallback);

  return {
    get language() {
      return current.language;
    },
    getState: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    t: (key, vars) => current.t(key, vars),
    async changeLanguage(language, more = []) {
      const request = ++requested;
      if (more.length > 0) wanted = parts.filter((part) => wanted.includes(part) || more.includes(part));
      await ensure(language, wanted);
      if (request === requested) refresh(language);
    },
    loadAllParts: () => loadParts(parts),
    loadParts,
  };

  async function loadParts(which: readonly string[]): Promise<void> {
    wanted = parts.filter((part) => wanted.includes(part) || which.includes(part));
    const { language } = current;
    await ensure(language, wanted);
    if (current.language === language) refresh(language);
  }
}
