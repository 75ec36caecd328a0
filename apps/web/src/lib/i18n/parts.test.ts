import { describe, expect, it } from 'vitest';
import ptBR from '../../locales/pt-BR.json';
import { CHAT_SECTIONS, pickPart, SHELL_SECTIONS } from './parts.ts';

describe('locale parts', () => {
  it('name only sections pt-BR.json has', () => {
    expect(SHELL_SECTIONS.filter((section) => !(section in ptBR))).toEqual([]);
    expect(CHAT_SECTIONS.filter((section) => !(section in ptBR))).toEqual([]);
    expect(CHAT_SECTIONS.filter((section) => SHELL_SECTIONS.includes(section))).toEqual([]);
  });

  it('split a locale file into disjoint parts that cover it', () => {
    const shell = pickPart(ptBR, 'shell');
    const chat = pickPart(ptBR, 'chat');
    const app = pickPart(ptBR, 'app');
    expect(Object.keys(shell).sort()).toEqual([...SHELL_SECTIONS].sort());
    expect(Object.keys(chat).sort()).toEqual([...CHAT_SECTIONS].sort());
    expect(Object.keys(app).filter((section) => section in shell || section in chat)).toEqual([]);
    expect({ ...shell, ...chat, ...app }).toEqual(ptBR);
  });
});
