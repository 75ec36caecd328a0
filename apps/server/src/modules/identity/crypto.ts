import { hash } from 'node:crypto';
import { randomBase62, randomBase64url } from '../../lib/random-id.ts';

/** A Firebase-like uid: 28 random base62 characters (~166 bits). */
export const newUid = () => randomBase62(28);

/** A session id: 24 random base62 characters (~142 bits); it also travels as the `sid` claim. */
export const newSessionId = () => randomBase62(24);

/** An opaque secret of 256 random bits (refresh tokens, out-of-band codes), base64url. */
export const newSecret = () => randomBase64url(32);

/** What is stored for a secret: its SHA-256, so a database leak gives no usable token. */
export const hashSecret = (secret: string) => hash('sha256', secret, 'base64url');
