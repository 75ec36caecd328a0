import { describe, expect, it } from 'vitest';
import { CnpjSchema, DomainCreateSchema } from './accounts.ts';
import { cnpjCheckDigits, formatCnpj, isValidCnpj, normalizeCnpj } from './cnpj.ts';

describe('CNPJ', () => {
  it.each([
    '11.222.333/0001-81',
    '11222333000181',
    // Receita Federal's example of the alphanumeric format (July 2026).
    '12.ABC.345/01DE-35',
    '12ABC34501DE35',
    '12abc34501de35',
    ' 12.ABC.345/01DE-35 ',
    // A real numeric one (Banco do Brasil) and real-looking alphanumerics built from the rule.
    '00.000.000/0001-91',
    `AB1CD2EF3GH4${cnpjCheckDigits('AB1CD2EF3GH4')}`,
    `ZZZZZZZZZZZZ${cnpjCheckDigits('ZZZZZZZZZZZZ')}`,
  ])('accepts %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    ['a wrong first check digit', '11.222.333/0001-91'],
    ['a wrong second check digit', '11.222.333/0001-82'],
    ['a wrong alphanumeric check digit', '12.ABC.345/01DE-36'],
    ['letters in the check digits', '12.ABC.345/01DE-3A'],
    ['a changed base character', '12.ABD.345/01DE-35'],
    ['too short', '1122233300018'],
    ['too long', '112223330001811'],
    ['half punctuated', '11.222.333000181'],
    ['odd punctuation', '11-222-333/0001.81'],
    ['symbols', '12.AB$.345/01DE-35'],
    ['all zeros', '00000000000000'],
    ['all ones', '11.111.111/1111-11'],
    ['empty', ''],
  ])('refuses %s', (_what, cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it('normalises to the 14 bare uppercase characters and formats back', () => {
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('nope')).toBeUndefined();
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('garbage')).toBe('garbage');
  });

  it('the zod schema validates and stores the bare form', () => {
    expect(CnpjSchema.parse('12.ABC.345/01DE-35')).toBe('12ABC34501DE35');
    expect(CnpjSchema.safeParse('12.ABC.345/01DE-36').success).toBe(false);
    const ok = DomainCreateSchema.parse({
      domain: 'acme.com.br',
      displayName: 'Acme',
      cnpj: '11.222.333/0001-81',
    });
    expect(ok.cnpj).toBe('11222333000181');
    expect(
      DomainCreateSchema.safeParse({ domain: 'acme.com.br', displayName: 'Acme', cnpj: '123' }).success,
    ).toBe(false);
  });
});
