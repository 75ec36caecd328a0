import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 32 random octets, base64url, give a 43-character verifier. */
export function createVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** RFC 7636 §4.2, S256: BASE64URL(SHA256(verifier)). */
export function challengeFor(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** An unguessable `state`, so a callback the extension did not ask for is recognised. */
export function createState(): string {
  return randomBytes(24).toString('base64url');
}

/** Compares two states without leaking through timing how much of a guess was right. */
export function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
