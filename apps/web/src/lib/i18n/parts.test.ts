import { describe, expect, it } from 'vitest';
import ptBR from '../../locales/pt-BR.json';
import { ADMIN_SECTIONS, CHAT_SECTIONS, pickPart, SHELL_SECTIONS } from './parts.ts';

describe('locale parts', () => {
  it('name only sections pt-BR.json has', () => {
    expect(SHELL_SECTIONS.filter((section) => !(section in ptBR))).toEqual([]);
    expect(CHAT_SECTIONS.filter((section) => !(section in ptBR))).toEqual([]);
    expect(ADMIN_SECTIONS.filter((section) => !(section in ptBR))).toEqual([]);
    const named = [...SHELL_SECTIONS, ...CHAT_SECTIONS, ...ADMIN_SECTIONS];
    expect(new Set(named).size).toBe(named.length);
  });

  it('split a locale file into disjoint parts that cover it', () => {
    const shell = pickPart(ptBR, 'shell');
    const chat = pickPart(ptBR, 'chat');
    const app = pickPart(ptBR, 'app');
    const admin = pickPart(ptBR, 'admin');
    expect(Object.keys(shell).sort()).toEqual([...SHELL_SECTIONS].sort());
    expect(Object.keys(chat).sort()).toEqual([...CHAT_SECTIONS].sort());
    expect(Object.keys(admin).sort()).toEqual([...ADMIN_SECTIONS].sort());
    expect(
      Object.keys(app).filter((section) => section in shell || section in chat || section in admin),
    ).toEqual([]);
    expect({ ...shell, ...chat, ...app, ...admin }).toEqual(ptBR);
  });
});
