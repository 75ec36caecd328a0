import { describe, expect, it, vi } from 'vitest';
import { createTranslator, interpolate, lookup, type Messages } from './translator.ts';

// Two parts per language, as in the app: `shell` loads with the language, `app` on demand.
const texts: Record<string, Record<string, Messages>> = {
  'pt-BR': {
    shell: {
      app: { name: 'Assistente' },
      greeting: 'Olá, {{name}}',
      only_reference: 'Só em pt-BR',
      footer: '© {{ year }} {{name}}',
      pages: '{{count}} páginas',
      pages_one: '{{count}} página',
    },
    app: { users: { title: 'Usuários' }, only_reference_app: 'Só no app em pt-BR' },
  },
  en: {
    shell: {
      app: { name: 'Assistant' },
      greeting: 'Hello, {{name}}',
      footer: '© {{year}} {{name}}',
      pages: '{{count}} pages',
      pages_one: '{{count}} page',
    },
    app: { users: { title: 'Users' } },
  },
};

function makeTranslator() {
  const onMissingKey = vi.fn();
  const load = vi.fn(async (language: string, part: string) => {
    const messages = texts[language]?.[part];
    if (!messages) throw new Error(`no ${language}`);
    return messages;
  });
  const translator = createTranslator({ load, parts: ['shell', 'app'], fallback: 'pt-BR', onMissingKey });
  return { translator, load, onMissingKey };
}

describe('lookup', () => {
  it('follows dotted keys and only answers strings', () => {
    expect(lookup({ a: { b: { c: 'x' } } }, 'a.b.c')).toBe('x');
    expect(lookup({ a: { b: { c: 'x' } } }, 'a.b')).toBeUndefined();
    expect(lookup({ a: 'x' }, 'a.b')).toBeUndefined();
    expect(lookup(undefined, 'a')).toBeUndefined();
  });
});

describe('interpolate', () => {
  it('replaces every {{var}}, with or without spaces, and escapes nothing', () => {
    expect(interpolate('{{a}} and {{ a }} or {{b}}', { a: '<b>', b: 0 })).toBe('<b> and <b> or 0');
  });

  it('leaves a placeholder without a value as written', () => {
    expect(interpolate('Olá, {{name}}', {})).toBe('Olá, {{name}}');
    expect(interpolate('Olá, {{name}}', undefined)).toBe('Olá, {{name}}');
  });
});

describe('Translator', () => {
  it('translates dotted keys with interpolation once a language is loaded', async () => {
    const { translator } = makeTranslator();
    await translator.changeLanguage('pt-BR');
    expect(translator.t('app.name')).toBe('Assistente');
    expect(translator.t('greeting', { name: 'Ana' })).toBe('Olá, Ana');
    expect(translator.t('footer', { year: 2026, name: 'X' })).toBe('© 2026 X');
  });

  it('picks the plural form of a numeric count by the language’s rules', async () => {
    const { translator, onMissingKey } = makeTranslator();
    await translator.changeLanguage('pt-BR');
    expect([0, 1, 2].map((count) => translator.t('pages', { count }))).toEqual([
      '0 páginas',
      '1 página',
      '2 páginas',
    ]);
    await translator.changeLanguage('en');
    expect([0, 1, 2].map((count) => translator.t('pages', { count }))).toEqual([
      '0 pages',
      '1 page',
      '2 pages',
    ]);
    // A count given as text, or a key with no plural forms, reads as written.
    expect(translator.t('pages', { count: '1' })).toBe('1 pages');
    expect(translator.t('greeting', { name: 'Ann', count: 1 })).toBe('Hello, Ann');
    expect(onMissingKey).not.toHaveBeenCalled();
  });

  it('loads only the first part with a language, the rest when asked for', async () => {
    const { translator, load } = makeTranslator();
    await translator.changeLanguage('pt-BR');
    expect(load.mock.calls).toEqual([['pt-BR', 'shell']]);
    await translator.loadAllParts();
    expect(translator.t('users.title')).toBe('Usuários');
    await translator.changeLanguage('en');
    expect(translator.t('users.title')).toBe('Users');
    expect(load.mock.calls).toEqual([
      ['pt-BR', 'shell'],
      ['pt-BR', 'app'],
      ['en', 'shell'],
      ['en', 'app'],
    ]);
  });

  it('loads parts asked for with a language in the same round, and with later languages', async () => {
    const { translator, load } = makeTranslator();
    const first = translator.changeLanguage('en', ['app']);
    // Both requests are out before either answers: no waterfall, and nothing of another language.
    expect(load.mock.calls).toEqual([
      ['en', 'shell'],
      ['en', 'app'],
    ]);
    await first;
    expect(translator.t('users.title')).toBe('Users');
    await translator.changeLanguage('pt-BR');
    expect(translator.t('users.title')).toBe('Usuários');
    expect(load.mock.calls.slice(2)).toEqual([
      ['pt-BR', 'shell'],
      ['pt-BR', 'app'],
    ]);
  });

  it('loads only the parts asked for, for later languages too', async () => {
    const { load } = makeTranslator();
    const translator = createTranslator({
      load: (language, part) =>
        part === 'chat' ? Promise.resolve({ chats: { title: `Chats ${language}` } }) : load(language, part),
      parts: ['shell', 'chat', 'app'],
      fallback: 'pt-BR',
    });
    await translator.changeLanguage('pt-BR');
    await translator.loadParts(['chat']);
    expect(translator.t('chats.title')).toBe('Chats pt-BR');
    expect(translator.t('app.name')).toBe('Assistente');
    await translator.changeLanguage('en');
    expect(translator.t('chats.title')).toBe('Chats en');
    // `app` was never asked for: only the shell went through `load`.
    expect(load.mock.calls).toEqual([
      ['pt-BR', 'shell'],
      ['en', 'shell'],
    ]);
  });

  it('loads the other parts when a key is not in the loaded ones, then re-renders', async () => {
    const { translator, onMissingKey } = makeTranslator();
    await translator.changeLanguage('pt-BR');
    const listener = vi.fn();
    translator.subscribe(listener);
    expect(translator.t('users.title')).toBe('users.title');
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1));
    expect(translator.t('users.title')).toBe('Usuários');
    expect(onMissingKey).not.toHaveBeenCalled();
  });

  it('merges a section split between parts, loading its other keys on a miss', async () => {
    const split: Record<string, Messages> = {
      shell: { pages: { chat: { title: 'Conversa' } } },
      app: { pages: { users: { title: 'Usuários' } } },
    };
    const translator = createTranslator({
      load: async (_language, part) => split[part] ?? {},
      parts: ['shell', 'app'],
      fallback: 'pt-BR',
    });
    await translator.changeLanguage('pt-BR');
    expect(translator.t('pages.chat.title')).toBe('Conversa');
    const listener = vi.fn();
    translator.subscribe(listener);
    expect(translator.t('pages.users.title')).toBe('pages.users.title');
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1));
    expect(translator.t('pages.users.title')).toBe('Usuários');
    expect(translator.t('pages.chat.title')).toBe('Conversa');
  });

  it('returns the key of a missing text and reports it once', async () => {
    const { translator, onMissingKey } = makeTranslator();
    await translator.changeLanguage('pt-BR');
    await translator.loadAllParts();
    expect(translator.t('nope.missing')).toBe('nope.missing');
    expect(translator.t('nope.missing')).toBe('nope.missing');
    expect(translator.t('app')).toBe('app');
    expect(onMissingKey.mock.calls).toEqual([
      ['nope.missing', 'pt-BR'],
      ['app', 'pt-BR'],
    ]);
  });

  it('answers keys before any texts have loaded with the key, silently', () => {
    const { translator, onMissingKey, load } = makeTranslator();
    expect(translator.t('app.name')).toBe('app.name');
    expect(onMissingKey).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
  });

  it('falls back to the pt-BR text, loading pt-BR on the first miss', async () => {
    const { translator, load, onMissingKey } = makeTranslator();
    await translator.changeLanguage('en');
    await translator.loadAllParts();
    expect(load.mock.calls).toEqual([
      ['en', 'shell'],
      ['en', 'app'],
    ]);
    const listener = vi.fn();
    translator.subscribe(listener);

    expect(translator.t('only_reference_app')).toBe('only_reference_app');
    expect(onMissingKey).toHaveBeenCalledWith('only_reference_app', 'en');
    await vi.waitFor(() => expect(listener).toHaveBeenCalled());
    expect(translator.language).toBe('en');
    expect(translator.t('only_reference_app')).toBe('Só no app em pt-BR');
    expect(translator.t('only_reference')).toBe('Só em pt-BR');
    expect(translator.t('app.name')).toBe('Assistant');
  });

  it('tells subscribers when the texts of the initial language arrive', async () => {
    const { translator } = makeTranslator();
    const listener = vi.fn();
    translator.subscribe(listener);
    expect(translator.language).toBe('pt-BR');
    await translator.changeLanguage('pt-BR');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(translator.t('app.name')).toBe('Assistente');
  });

  it('switches language, loads each language once and tells subscribers', async () => {
    const { translator, load } = makeTranslator();
    const listener = vi.fn();
    const unsubscribe = translator.subscribe(listener);
    await translator.changeLanguage('pt-BR');
    const before = translator.getState();
    await translator.changeLanguage('en');
    expect(translator.getState()).not.toBe(before);
    expect(translator.t('greeting', { name: 'Ann' })).toBe('Hello, Ann');
    await translator.changeLanguage('pt-BR');
    await translator.changeLanguage('pt-BR');
    expect(translator.t('app.name')).toBe('Assistente');
    expect(listener).toHaveBeenCalledTimes(3);
    expect(load.mock.calls).toEqual([
      ['pt-BR', 'shell'],
      ['en', 'shell'],
    ]);
    unsubscribe();
    await translator.changeLanguage('en');
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('keeps the last requested language when switches overlap', async () => {
    const { translator } = makeTranslator();
    await Promise.all([translator.changeLanguage('en'), translator.changeLanguage('pt-BR')]);
    expect(translator.language).toBe('pt-BR');
  });

  it('keeps the current language when loading another fails', async () => {
    const { translator } = makeTranslator();
    await translator.changeLanguage('pt-BR');
    await expect(translator.changeLanguage('fr')).rejects.toThrow('no fr');
    expect(translator.language).toBe('pt-BR');
    expect(translator.t('app.name')).toBe('Assistente');
  });
});
