import { z } from 'zod';

/** The login-submit payload (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension), sent by the login page during the editor handoff. */
export const LoginSubmitRequestSchema = z.strictObject({
  idToken: z.string().min(1),
  refreshToken: z.string().min(1),
  state: z.string().min(1).max(512),
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'code_challenge must be an S256 challenge'),
  redirect_uri: z.string().url().max(2048),
  email: z.string().max(254),
});
export type LoginSubmitRequest = z.infer<typeof LoginSubmitRequestSchema>;

export const LoginSubmitResponseSchema = z.object({ redirect_uri: z.string() });
export type LoginSubmitResponse = z.infer<typeof LoginSubmitResponseSchema>;

export const CodeTokenRequestSchema = z.strictObject({
  code: z.string().min(1).max(200),
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'Invalid code_verifier'),
  redirect_uri: z.string().max(2048),
});
export type CodeTokenRequest = z.infer<typeof CodeTokenRequestSchema>;

export const CodeTokenResponseSchema = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.string(),
  localId: z.string(),
  email: z.string(),
});
export type CodeTokenResponse = z.infer<typeof CodeTokenResponseSchema>;
