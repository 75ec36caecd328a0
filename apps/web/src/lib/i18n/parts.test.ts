import { describe, expect, it } from 'vitest';
import ptBR from '../../locales/pt-BR.json';
import {
  ADMIN_SECTIONS,
  AUTH_SECTIONS,
  CHAT_SECTIONS,
  LOCALE_PARTS,
  pickPart,
  SHELL_SECTIONS,
  SPLIT_SECTIONS,
  SUBSECTION_PARTS,
} from './parts.ts';

const sections: Record<string, unknown> = ptBR;
const isTree = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

describe('locale parts', () => {
  it('name only sections pt-BR.json has', () => {
    const named = [...SHELL_SECTIONS, ...AUTH_SECTIONS, ...CHAT_SECTIONS, ...ADMIN_SECTIONS];
    expect(named.filter((section) => !(section in ptBR))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
  });

  it('move to another part only subsections pt-BR.json has, to a part their section is not in', () => {
    const wrong = Object.entries(SUBSECTION_PARTS).filter(([name, part]) => {
      const [section = '', key = ''] = name.split('.');
      const value = sections[section];
      const whole = pickPart({ [section]: 'text' }, part);
      return section in whole || !isTree(value) || !(key in value);
    });
    expect(wrong).toEqual([]);
  });

  it('split a locale file into disjoint parts that cover it', () => {
    const picked = Object.fromEntries(LOCALE_PARTS.map((part) => [part, pickPart(ptBR, part)]));
    const split = SPLIT_SECTIONS;
    const whole = (part: keyof typeof picked) =>
      Object.keys(picked[part] ?? {})
        .filter((section) => !split.has(section))
        .sort();
    expect(whole('shell')).toEqual([...SHELL_SECTIONS].sort());
    expect(whole('auth')).toEqual([...AUTH_SECTIONS].sort());
    expect(whole('chat')).toEqual(CHAT_SECTIONS.filter((section) => !split.has(section)).sort());
    expect(whole('admin')).toEqual(ADMIN_SECTIONS.filter((section) => !split.has(section)).sort());

    // Each text is in exactly one part: a whole section, or one subsection of a split one.
    const owners = new Map<string, string[]>();
    for (const [part, messages] of Object.entries(picked)) {
      for (const [section, value] of Object.entries(messages)) {
        const names =
          split.has(section) && isTree(value)
            ? Object.keys(value).map((key) => `${section}.${key}`)
            : [section];
        for (const name of names) owners.set(name, [...(owners.get(name) ?? []), part]);
      }
    }
    expect([...owners].filter(([, parts]) => parts.length !== 1)).toEqual([]);
    const expected = Object.entries(sections).flatMap(([section, value]) =>
      split.has(section) && isTree(value) ? Object.keys(value).map((key) => `${section}.${key}`) : [section],
    );
    expect([...owners.keys()].sort()).toEqual(expected.sort());
    expect(Object.keys(picked.chat?.knowledge ?? {})).toEqual(['citations']);
    expect(Object.keys(picked.chat?.shares ?? {}).sort()).toEqual(['page', 'share', 'untitled']);
  });
});
