import type { AddressInfo } from 'node:net';
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app';
import {
  type Auth,
  confirmPasswordReset,
  connectAuthEmulator,
  getIdToken,
  getIdTokenResult,
  initializeAuth,
  inMemoryPersistence,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updatePassword,
  verifyPasswordResetCode,
} from 'firebase/auth';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildIdentityTestApp,
  GOOD_PASSWORD,
  type IdentityTestApp,
  uniqueEmail,
} from '../../test/identity.ts';
import { startSmtpSink } from '../../test/smtp-sink.ts';

/** The official Firebase JS SDK, in emulator mode, against the built-in identity service on a real port. */
describe('Firebase JS SDK against the built-in identity service', () => {
  let t: IdentityTestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let origin: string;
  let firebase: FirebaseApp;
  let auth: Auth;
  let n = 0;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildIdentityTestApp({ env: { SMTP_URL: sink.url } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });
  beforeEach(() => {
    firebase = initializeApp(
      { apiKey: 'assistente-local', authDomain: '127.0.0.1', projectId: t.config.PROJECT_ID },
      `sdk-test-${n++}`,
    );
    auth = initializeAuth(firebase, { persistence: inMemoryPersistence });
    connectAuthEmulator(auth, origin, { disableWarnings: true });
  });
  afterEach(async () => {
    await deleteApp(firebase);
  });

  const makeUser = async () => {
    const email = uniqueEmail('sdk');
    const account = await t.identity.createAccount({ email, password: GOOD_PASSWORD, displayName: 'Caio' });
    return { email, uid: account.uid };
  };

  it('signs in with email and password, refreshes the id token and signs out', async () => {
    const { email, uid } = await makeUser();
    const { user } = await signInWithEmailAndPassword(auth, email, GOOD_PASSWORD);
    expect(user.uid).toBe(uid);
    expect(user.email).toBe(email);
    expect(user.displayName).toBe('Caio');
    expect(user.emailVerified).toBe(false);
    expect(user.providerData[0]?.providerId).toBe('password');
    expect(user.metadata.creationTime).toBeTruthy();
    expect(auth.currentUser?.uid).toBe(uid);

    const jwks = createLocalJWKSet(t.identity.jwks());
    const first = await getIdToken(user);
    const { payload } = await jwtVerify(first, jwks, {
      issuer: 'http://localhost:3999/identity',
      audience: 'assistente',
    });
    expect(payload.sub).toBe(uid);

    const result = await getIdTokenResult(user);
    expect(result.signInProvider).toBe('password');
    expect(result.claims.sid).toBe(payload.sid);

    const refreshBefore = user.refreshToken;
    const second = await getIdToken(user, true);
    expect(second).not.toBe(first);
    expect(user.refreshToken).not.toBe(refreshBefore);
    expect((await jwtVerify(second, jwks, { audience: 'assistente' })).payload.sid).toBe(payload.sid);
    expect(await t.identity.isSessionActive(String(payload.sid))).toBe(true);

    await signOut(auth);
    expect(auth.currentUser).toBeNull();
  });

  it('maps a wrong password to auth/invalid-credential', async () => {
    const { email } = await makeUser();
    await expect(signInWithEmailAndPassword(auth, email, 'not my password')).rejects.toMatchObject({
      code: 'auth/invalid-credential',
    });
    await expect(
      signInWithEmailAndPassword(auth, uniqueEmail('nobody'), 'not my password'),
    ).rejects.toMatchObject({
      code: 'auth/invalid-credential',
    });
  });

  it('sends a password reset mail whose code the SDK verifies and confirms', async () => {
    const { email } = await makeUser();
    const { user } = await signInWithEmailAndPassword(auth, email, GOOD_PASSWORD);
    auth.languageCode = 'en';
    await sendPasswordResetEmail(auth, email);
    const mail = await sink.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe('Reset your Assistente password');
    const link = /http:\/\/localhost:3999\/auth\/reset-password\?oobCode=[^\s"<]+/.exec(mail.text)?.[0] ?? '';
    const oobCode = new URL(link).searchParams.get('oobCode') ?? '';
    expect(await verifyPasswordResetCode(auth, oobCode)).toBe(email);
    await confirmPasswordReset(auth, oobCode, 'a passphrase from the sdk');
    // The reset ended every session: the SDK's next refresh fails and it signs the user out.
    await expect(getIdToken(user, true)).rejects.toMatchObject({ code: 'auth/user-token-expired' });
    await expect(confirmPasswordReset(auth, oobCode, 'yet another one here')).rejects.toMatchObject({
      code: 'auth/invalid-action-code',
    });
    const again = await signInWithEmailAndPassword(auth, email, 'a passphrase from the sdk');
    expect(again.user.uid).toBe(user.uid);
  });

  it('changes the password right after sign-in and keeps the user signed in', async () => {
    const { email } = await makeUser();
    const { user } = await signInWithEmailAndPassword(auth, email, GOOD_PASSWORD);
    await updatePassword(user, 'changed from the sdk');
    await getIdToken(user, true);
    await expect(updatePassword(user, '123456')).rejects.toMatchObject({
      code: 'auth/password-does-not-meet-requirements',
    });
    await signOut(auth);
    await signInWithEmailAndPassword(auth, email, 'changed from the sdk');
  });
});
