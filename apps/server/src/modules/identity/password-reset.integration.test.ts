import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { oobCodes } from '../../db/schema/index.ts';
import { GOOD_PASSWORD, uniqueEmail } from '../../test/identity.ts';
import {
  latestOutboxCode,
  latestOutboxMail,
  nextIp,
  RESET,
  SEND_OOB,
  useIdentityApp,
} from '../../test/identity-http.ts';
import { DEFAULT_LIMITS } from './service.ts';

describe('password reset through a real SMTP server', () => {
  const { t, sink, post, makeUser, signIn, signedIn, refresh, errorOf } = useIdentityApp({ smtp: true });

  const requestReset = async (email: string, extra: Record<string, unknown> = {}) => {
    const res = await post(SEND_OOB, { requestType: 'PASSWORD_RESET', email, ...extra });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email });
  };
  const codeFrom = (text: string) => {
    const link = /http:\/\/localhost:3999\/auth\/reset-password\?oobCode=[A-Za-z0-9_%-]+/.exec(text)?.[0];
    if (!link) throw new Error(`no reset link in:\n${text}`);
    return decodeURIComponent(new URL(link).searchParams.get('oobCode') ?? '');
  };

  it('mails a link that checks, sets the password once, and ends every session', async () => {
    const { email } = await makeUser();
    const before = await signedIn(email);
    await requestReset(email);
    const mail = await sink().waitFor((m) => m.to.includes(email));
    expect(mail.from).toBe('no-reply@example.com');
    expect(mail.subject).toContain('Redefina sua senha');
    const oobCode = codeFrom(mail.text);

    const check = await post(RESET, { oobCode });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ email, requestType: 'PASSWORD_RESET' });

    const weak = await post(RESET, { oobCode, newPassword: '12345' });
    expect(errorOf(weak).split(' : ')[0]).toBe('PASSWORD_DOES_NOT_MEET_REQUIREMENTS');

    const set = await post(RESET, { oobCode, newPassword: 'a fresh passphrase' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ email, requestType: 'PASSWORD_RESET' });

    expect(errorOf(await refresh(before.refreshToken))).toBe('TOKEN_EXPIRED');
    expect(await t().identity.isSessionActive(decodeJwt(before.idToken).sid as string)).toBe(false);
    expect(errorOf(await signIn(email, GOOD_PASSWORD))).toBe('INVALID_LOGIN_CREDENTIALS');
    expect((await signIn(email, 'a fresh passphrase')).statusCode).toBe(200);

    expect(errorOf(await post(RESET, { oobCode, newPassword: 'and one more passphrase' }))).toBe(
      'INVALID_OOB_CODE',
    );
    expect(errorOf(await post(RESET, { oobCode }))).toBe('INVALID_OOB_CODE');
  });

  it('refuses an expired code', async () => {
    const { email, uid } = await makeUser();
    await requestReset(email);
    const oobCode = codeFrom((await sink().waitFor((m) => m.to.includes(email))).text);
    await t()
      .ctx.db.update(oobCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oobCodes.uid, uid));
    expect(errorOf(await post(RESET, { oobCode }))).toBe('EXPIRED_OOB_CODE');
    expect(errorOf(await post(RESET, { oobCode, newPassword: 'a fresh passphrase' }))).toBe(
      'EXPIRED_OOB_CODE',
    );
    expect((await signIn(email)).statusCode).toBe(200);
  });

  it('expires codes one hour after they were sent', async () => {
    const { email, uid } = await makeUser();
    await requestReset(email);
    await sink().waitFor((m) => m.to.includes(email));
    const [row] = await t().ctx.db.select().from(oobCodes).where(eq(oobCodes.uid, uid));
    const ttl = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(ttl).toBe(3600_000);
  });

  it('writes the mail in the requested language', async () => {
    const { email: es } = await makeUser();
    const { email: en } = await makeUser();
    await requestReset(es, { locale: 'es-419' });
    const r = await t().app.inject({
      method: 'POST',
      url: SEND_OOB,
      headers: { 'x-firebase-locale': 'en' },
      payload: { requestType: 'PASSWORD_RESET', email: en },
    });
    expect(r.statusCode).toBe(200);
    const spanish = await sink().waitFor((m) => m.to.includes(es));
    expect(spanish.subject).toMatch(/^=\?UTF-8\?Q\?Restablece_tu_contrase=C3=B1a/);
    expect(spanish.text).toContain('Recibimos una solicitud para restablecer');
    expect((await sink().waitFor((m) => m.to.includes(en))).subject).toBe('Reset your Assistente password');
  });

  it('answers 200 for unknown emails and sends nothing', async () => {
    const ghost = uniqueEmail('ghost');
    await requestReset(ghost);
    await t().identity.drain();
    expect(sink().mails.some((m) => m.to.includes(ghost))).toBe(false);
  });

  it('limits mails per email silently', async () => {
    const { email } = await makeUser();
    for (let i = 0; i < DEFAULT_LIMITS.resetMailsPerEmail.max + 2; i++) await requestReset(email);
    await t().identity.drain();
    await sink().waitFor((m) => m.to.includes(email));
    expect(sink().mails.filter((m) => m.to.includes(email))).toHaveLength(
      DEFAULT_LIMITS.resetMailsPerEmail.max,
    );
  });

  it('limits mails per IP silently', async () => {
    const ip = nextIp();
    const emails: string[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.resetMailsPerIp.max + 2; i++) {
      const { email } = await makeUser();
      emails.push(email);
      const res = await post(SEND_OOB, { requestType: 'PASSWORD_RESET', email }, ip);
      expect(res.statusCode).toBe(200);
    }
    await t().identity.drain();
    const sent = emails.filter((e) => sink().mails.some((m) => m.to.includes(e)));
    expect(sent).toHaveLength(DEFAULT_LIMITS.resetMailsPerIp.max);
  });

  it('refuses made-up codes', async () => {
    expect(errorOf(await post(RESET, { oobCode: 'x'.repeat(43) }))).toBe('INVALID_OOB_CODE');
  });
});

describe('password reset without SMTP_URL', () => {
  const { t, post, makeUser } = useIdentityApp();

  it('writes an .eml into DATA_DIR/outbox and logs the link', async () => {
    const { email } = await makeUser();
    const res = await post(SEND_OOB, { requestType: 'PASSWORD_RESET', email, locale: 'en' });
    expect(res.statusCode).toBe(200);
    await t().identity.drain();
    const eml = latestOutboxMail(t(), email);
    expect(eml).toMatch(/^Subject: Reset your Assistente password\r$/m);
    expect(eml).toMatch(/^Content-Type: multipart\/alternative/m);
    const code = await latestOutboxCode(t(), email);
    const line = t().logs.find(
      (l) => l.level === 30 && typeof l.msg === 'string' && l.msg.includes('oobCode='),
    );
    expect(line?.msg).toContain(`http://localhost:3999/auth/reset-password?oobCode=${code}`);
    const file = readdirSync(path.join(t().dataDir, 'outbox'))[0] ?? '';
    expect(statSync(path.join(t().dataDir, 'outbox', file)).mode & 0o777).toBe(0o600);
  });
});
