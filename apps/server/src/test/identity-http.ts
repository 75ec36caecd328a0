import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IdentityErrorBodySchema } from '@assistente/contracts';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { identitySessions } from '../db/schema/index.ts';
import { buildIdentityTestApp, GOOD_PASSWORD, type IdentityTestApp, uniqueEmail } from './identity.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

/** The identity routes the suites call, as the Firebase SDK names them. */
export const SIGN_IN = '/identity/v1/accounts:signInWithPassword';
export const TOKEN = '/identity/v1/token';
export const REVOKE = '/identity/v2/accounts:revokeToken';
export const SEND_OOB = '/identity/v1/accounts:sendOobCode';
export const RESET = '/identity/v1/accounts:resetPassword';
export const UPDATE = '/identity/v1/accounts:update';
export const LOOKUP = '/identity/v1/accounts:lookup';

let ipCounter = 0;
/** A fresh client address, so per-IP counters of one test never reach another. */
export const nextIp = () => `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

/**
 * One identity test app for the enclosing describe (or file), built before its tests and closed
 * after, with the calls its tests make over HTTP. `smtp` puts a real SMTP sink behind it.
 */
export function useIdentityApp(opts: { smtp?: boolean } = {}) {
  let app: IdentityTestApp | undefined;
  let smtp: SmtpSink | undefined;
  beforeAll(async () => {
    if (opts.smtp) smtp = await startSmtpSink();
    app = await buildIdentityTestApp(
      smtp ? { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Assistente <no-reply@example.com>' } } : {},
    );
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });
  const t = () => {
    if (!app) throw new Error('the identity test app is built in beforeAll');
    return app;
  };

  const post = (url: string, payload: unknown, ip = nextIp()) =>
    t().app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress: ip });
  const makeUser = async (o: { password?: string; displayName?: string } = {}) => {
    const email = uniqueEmail();
    const account = await t().identity.createAccount({
      email,
      password: o.password ?? GOOD_PASSWORD,
      displayName: o.displayName ?? 'Ana Souza',
    });
    return { email, uid: account.uid };
  };
  const signIn = (email: string, password = GOOD_PASSWORD, ip = nextIp()) =>
    post(SIGN_IN, { email, password, returnSecureToken: true }, ip);
  const signedIn = async (email: string, password = GOOD_PASSWORD) => {
    const res = await signIn(email, password);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { idToken: string; refreshToken: string; localId: string; email: string };
  };
  const refresh = (refreshToken: string) =>
    post(TOKEN, { grant_type: 'refresh_token', refresh_token: refreshToken });
  const errorOf = (res: { statusCode: number; json(): unknown }) =>
    IdentityErrorBodySchema.parse(res.json()).error.message;
  const sessionCount = async () => {
    const [row] = await t().ctx.db.select({ n: count() }).from(identitySessions);
    return row?.n ?? 0;
  };
  const sink = () => {
    if (!smtp) throw new Error('useIdentityApp({ smtp: true }) starts the sink');
    return smtp;
  };
  return { t, sink, post, makeUser, signIn, signedIn, refresh, errorOf, sessionCount };
}

/** The newest .eml in the outbox addressed to `email`. */
export function latestOutboxMail(t: IdentityTestApp, email: string): string {
  const dir = path.join(t.dataDir, 'outbox');
  const files = readdirSync(dir).sort().reverse();
  for (const f of files) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    if (text.includes(`To: ${email}`)) return text;
  }
  throw new Error(`no mail to ${email} in the outbox`);
}

/** The reset code of the newest outbox mail to `email`, once the mails in flight are written. */
export async function latestOutboxCode(t: IdentityTestApp, email: string): Promise<string> {
  await t.identity.drain();
  const text = latestOutboxMail(t, email)
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  const code = /oobCode=([A-Za-z0-9_%-]+)/.exec(text)?.[1];
  if (!code) throw new Error('no oobCode in the mail');
  return decodeURIComponent(code);
}
