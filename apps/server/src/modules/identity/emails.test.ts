import { Locales } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { passwordMail, resolveLocale } from './emails.ts';
import { describeUserAgent } from './user-agent.ts';

describe('password mails', () => {
  const link = 'http://localhost:3000/auth/reset-password?oobCode=abc_DEF-123';

  it('exist for every locale and kind, with the link first among links and in the HTML', () => {
    const subjects = new Set<string>();
    for (const locale of Locales) {
      for (const kind of ['reset', 'invite'] as const) {
        const mail = passwordMail({
          kind,
          locale,
          to: 'ana@acme.com',
          link,
          validHours: kind === 'invite' ? 72 : 1,
        });
        subjects.add(mail.subject);
        expect(mail.to).toBe('ana@acme.com');
        expect(/https?:\/\/\S+/.exec(mail.text)?.[0]).toBe(link);
        expect(mail.html).toContain(`href="${link}"`);
        expect(mail.html).toContain(`lang="${locale}"`);
        expect(mail.text).toContain('ana@acme.com');
      }
    }
    expect(subjects.size).toBe(6);
  });

  it('say what each kind is about', () => {
    const mail = (kind: 'reset' | 'invite', locale: 'pt-BR' | 'en' | 'es') =>
      passwordMail({ kind, locale, to: 'a@b.c', link, validHours: kind === 'invite' ? 72 : 1 });
    expect(mail('reset', 'pt-BR').text).toContain('redefinir a senha');
    expect(mail('reset', 'pt-BR').text).toContain('1 hora');
    expect(mail('invite', 'pt-BR').text).toContain('Você foi convidado');
    expect(mail('invite', 'pt-BR').text).toContain('72 horas');
    expect(mail('invite', 'en').text).toContain('You were invited');
    expect(mail('invite', 'en').text).toContain('set your password');
    expect(mail('invite', 'es').text).toContain('Te invitaron');
    expect(mail('reset', 'es').subject).toContain('Restablece tu contraseña');
  });

  it('escape what goes into the HTML', () => {
    const mail = passwordMail({
      kind: 'reset',
      locale: 'en',
      to: '<b>x</b>@y.z',
      link: `${link}&x="y"`,
      validHours: 1,
    });
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(mail.html).toContain('&amp;x=&quot;y&quot;');
  });
});

describe('resolveLocale', () => {
  it('maps what clients send to pt-BR, en or es, defaulting to pt-BR', () => {
    expect(resolveLocale('es-419')).toBe('es');
    expect(resolveLocale('pt')).toBe('pt-BR');
    expect(resolveLocale('pt_BR')).toBe('pt-BR');
    expect(resolveLocale('EN-us')).toBe('en');
    expect(resolveLocale(undefined, 'en')).toBe('en');
    expect(resolveLocale('fr-FR', undefined, 'de-DE,es;q=0.8,en;q=0.5')).toBe('es');
    expect(resolveLocale('fr', 'de')).toBe('pt-BR');
    expect(resolveLocale()).toBe('pt-BR');
  });
});

describe('describeUserAgent', () => {
  it('names sessions by browser and system', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
    ).toBe('Safari on macOS');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      ),
    ).toBe('Edge on Windows');
    expect(describeUserAgent('Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0')).toBe(
      'Firefox on Android',
    );
    expect(describeUserAgent(undefined)).toBe('Unknown device');
  });
});
