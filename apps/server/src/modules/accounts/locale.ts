import { type Locale, Locales } from '@assistente/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Caller } from '../../lib/caller.ts';
import { resolveLocale } from '../identity/emails.ts';

/** What the request says about the language the caller reads: `?locale=`, then Accept-Language. */
export interface LocaleHints {
  query?: string;
  acceptLanguage?: string;
}

/**
 * `?locale=` of the caller's screen, declared on the routes that write texts for someone; lenient,
 * like the client's other hints (a value it cannot use is dropped, never refused).
 */
export const LocaleQuery = z.object({ locale: z.string().max(35).optional().catch(undefined) });

export function localeHints(request: FastifyRequest): LocaleHints {
  const { locale } = LocaleQuery.parse(request.query ?? {});
  const accept = request.headers['accept-language'];
  return {
    ...(locale ? { query: locale } : {}),
    ...(typeof accept === 'string' ? { acceptLanguage: accept } : {}),
  };
}

/**
 * The language the caller reads, for texts the server writes for them (mails, exports). An explicit
 * `?locale=` (the language their screen shows) wins, then their saved language, then their
 * browser's Accept-Language; pt-BR otherwise.
 */
export function callerLocale(caller: Pick<Caller, 'user'>, hints: LocaleHints): Locale {
  const saved = Locales.find((l) => l === caller.user.locale);
  return resolveLocale(hints.query, saved, hints.acceptLanguage);
}
