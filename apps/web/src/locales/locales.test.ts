import { AuditActions, AuditFields, ErrorCodes, Roles } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { AUTH_ERROR_KEYS } from '../features/auth/authErrors.ts';
import { TRANSLATED_ERROR_CODES } from '../features/chats/lib/errors.ts';
import { auditActionKey } from '../features/settings/components/AuditTab.tsx';
import en from './en.json';
import es from './es.json';
import ptBR from './pt-BR.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const reference = flatten(ptBR);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe.each([
  ['en', en],
  ['es', es],
])('%s.json', (_name, messages) => {
  const flat = flatten(messages);

  it('has every key of pt-BR.json', () => {
    expect([...reference.keys()].filter((key) => !flat.has(key))).toEqual([]);
  });

  it('has no key that pt-BR.json lacks', () => {
    expect([...flat.keys()].filter((key) => !reference.has(key))).toEqual([]);
  });

  it('uses the same placeholders as pt-BR.json', () => {
    for (const [key, text] of reference)
      expect(placeholders(flat.get(key) ?? ''), key).toEqual(placeholders(text));
  });

  it('has no empty text', () => {
    expect([...flat].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
  });
});

describe('pt-BR.json', () => {
  it("carries the spec's texts verbatim", () => {
    expect(reference.get('error_page.not_found.title')).toBe('Página não encontrada');
    expect(reference.get('error_page.generic.title')).toBe('Ocorreu um erro');
    expect(reference.get('error_page.back')).toBe('Voltar');
    expect(reference.get('pages_login.email')).toBe('E-mail');
    expect(reference.get('pages_login.password')).toBe('Senha');
    expect(reference.get('pages_login.submit')).toBe('Entrar');
    expect(reference.get('pages_login.forgot_password')).toBe('Esqueci minha senha');
    expect(reference.get('pages_login.redirect_vscode.error_message.title')).toBe(
      'Falha ao redirecionar para o VSCode',
    );
    expect(reference.get('popup.details_label')).toBe('details: ');
    expect(reference.get('pages.home.greeting')).toBe('Olá, {{name}}');
  });

  it('has a text for every auth error code', () => {
    expect(AUTH_ERROR_KEYS.filter((key) => !reference.has(key))).toEqual([]);
  });

  it('has a text for every error code the services answer with, so none reaches a person in English', () => {
    expect(ErrorCodes.filter((code) => !reference.has(`errors.codes.${code}`))).toEqual([]);
  });

  it('has a chat text for every code the chat says in its own words', () => {
    expect(TRANSLATED_ERROR_CODES.filter((code) => !reference.has(`chats.errors.${code}`))).toEqual([]);
  });

  it('has a text for every audit action, field and role an audit row shows', () => {
    expect(AuditActions.map(auditActionKey).filter((key) => !reference.has(key))).toEqual([]);
    expect(AuditFields.filter((field) => !reference.has(`audit.fields.${field}`))).toEqual([]);
    expect(Roles.filter((role) => !reference.has(`roles.${role}`))).toEqual([]);
  });
});
