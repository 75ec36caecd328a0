import { DomainCreateSchema, UserCreateSchema } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { schemaErrors, validateWith } from './schemaErrors.ts';

const t = (key: string, vars?: Readonly<Record<string, unknown>>) =>
  vars ? `${key} ${JSON.stringify(vars)}` : key;

describe('schemaErrors', () => {
  it('translates each field’s first problem found by the shared schema', () => {
    const errors = schemaErrors(
      UserCreateSchema,
      { email: 'not-an-email', displayName: '  ', domain: 'acme.com', department: '', role: 'Viewer' },
      t,
    );
    expect(errors).toEqual({
      email: 'validation.email',
      displayName: 'validation.required',
      department: 'validation.required',
    });
  });

  it('reports length limits with the limit', () => {
    const errors = schemaErrors(
      UserCreateSchema,
      { email: 'a@b.co', displayName: 'x'.repeat(121), domain: 'acme.com', department: 'd', role: 'Viewer' },
      t,
    );
    expect(errors.displayName).toBe('validation.max_length {"max":120}');
  });

  it('uses the field’s own key for refinements and patterns (CNPJ, domain name)', () => {
    const keys = { cnpj: 'validation.cnpj', domain: 'validation.domain_name' };
    const errors = schemaErrors(
      DomainCreateSchema,
      { domain: 'not a domain', displayName: 'Acme', cnpj: '11.222.333/0001-82' },
      t,
      keys,
    );
    expect(errors).toEqual({ domain: 'validation.domain_name', cnpj: 'validation.cnpj' });
  });

  it('answers the parsed data when valid (trimmed, normalised)', () => {
    const result = validateWith(
      DomainCreateSchema,
      { domain: ' Acme.COM.br ', displayName: ' Acme ', cnpj: '12.abc.345/01de-35' },
      t,
    );
    expect(result).toEqual({
      ok: true,
      data: { domain: 'acme.com.br', displayName: 'Acme', cnpj: '12ABC34501DE35' },
    });
  });
});
