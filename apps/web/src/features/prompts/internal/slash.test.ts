import type { Prompt } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { matchPrompts, slashQuery } from './slash.ts';

const prompt = (id: string, command: string, title: string): Prompt => ({
  id,
  title,
  command,
  content: `${title}.`,
  scope: 'private',
  departmentId: null,
  version: 1,
  variables: [],
  authorName: 'Ana',
  editable: true,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
});

describe('slashQuery', () => {
  it('finds a `/` that starts the message, with what follows it up to the line’s end', () => {
    expect(slashQuery('/', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(slashQuery('/resu', 5)).toEqual({ start: 0, end: 5, query: 'resu' });
    expect(slashQuery('/resu', 3)).toEqual({ start: 0, end: 5, query: 'resu' });
  });

  it('finds a `/` that starts a later line, and only the caret’s line', () => {
    const text = 'Olá\n/ata\nfim';
    expect(slashQuery(text, 8)).toEqual({ start: 4, end: 8, query: 'ata' });
    expect(slashQuery(text, 2)).toBeNull();
    expect(slashQuery(text, 11)).toBeNull();
  });

  it('ignores a `/` inside a line, the caret before it, a space after it and a long line', () => {
    expect(slashQuery('veja /ata', 9)).toBeNull();
    expect(slashQuery('/ata', 0)).toBeNull();
    expect(slashQuery('/ ata', 5)).toBeNull();
    expect(slashQuery(`/${'x'.repeat(61)}`, 62)).toBeNull();
  });
});

describe('matchPrompts', () => {
  const all = [
    prompt('1', 'email-cliente', 'E-mail para cliente'),
    prompt('2', 'ata', 'Ata de reunião'),
    prompt('3', 'resumo-ata', 'Resumo'),
  ];

  it('lists everything for an empty query', () => {
    expect(matchPrompts(all, '').map((p) => p.id)).toEqual(['1', '2', '3']);
  });

  it('puts commands that start with the query first, then commands and titles that contain it', () => {
    expect(matchPrompts(all, 'ata').map((p) => p.id)).toEqual(['2', '3']);
    expect(matchPrompts(all, 'cli').map((p) => p.id)).toEqual(['1']);
  });

  it('matches titles without case or accents', () => {
    expect(matchPrompts(all, 'REUNIAO').map((p) => p.id)).toEqual(['2']);
    expect(matchPrompts(all, 'nada')).toEqual([]);
  });
});
