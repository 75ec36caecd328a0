import {
  IdentityErrorBodySchema,
  type Locale,
  SsoLoginOptionsSchema,
  SsoStartQuerySchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { toIdentityError } from '../identity/index.ts';
import { redirectNotAppPath } from './errors.ts';
import { localPath, SsoFlowError } from './flow.ts';

const ProviderParams = z.object({ providerId: z.string().min(1).max(100) });
/** The browser is sent on: the answer is a redirect, its body empty. */
const Redirect = z.null().describe('A redirect (Location header)');
/**
 * What a provider sends back: the names an OpenID Connect answer uses, and whatever else it adds
 * (handed on whole to openid-client), every value a string.
 */
const CallbackValue = z.string().max(4096);
const CallbackQuery = z
  .object({
    code: CallbackValue.optional(),
    state: CallbackValue.optional(),
    iss: CallbackValue.optional(),
    error: CallbackValue.optional(),
    error_description: CallbackValue.optional(),
  })
  .catchall(CallbackValue);

/**
 * The browser's side of single sign-on (docs/ARCHITECTURE.md#single-sign-on), beside the identity service it ends in:
 * the login page's list of providers, the start that sends the browser to the provider, and the
 * callback the operator registers there, `{PUBLIC_URL}/identity/sso/{providerId}/callback`.
 */
export async function ssoFlowRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.sso;
  const flow = ctx.services.ssoFlow;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sso'];
  const PUBLIC = { auth: 'public' } as const;
  /** A step of the browser's sign-in at a provider: public, and answered with a redirect. */
  const redirecting = <Q extends z.ZodType>(summary: string, querystring: Q) => ({
    config: PUBLIC,
    schema: {
      tags,
      summary,
      params: ProviderParams,
      querystring,
      response: { 302: Redirect, 400: IdentityErrorBodySchema },
    },
  });

  // Under /identity, so refusals answer in Identity Toolkit's envelope like every identity route.
  app.setErrorHandler((err, request, reply) => {
    const e = toIdentityError(err);
    if (e.status >= 500) request.log.error({ err }, 'sso request failed');
    reply.status(e.status).send(e.toBody());
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  r.get(
    '/identity/sso/providers',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'The single sign-on providers the login page offers',
        response: { 200: SsoLoginOptionsSchema, 400: IdentityErrorBodySchema },
      },
    },
    async () => service.loginOptions(),
  );

  r.get(
    '/identity/sso/:providerId/start',
    redirecting('Send the browser to the provider (authorization code flow with PKCE)', SsoStartQuerySchema),
    async (request, reply) => {
      const redirect = localPath(request.query.redirect);
      // Only a path of this app: after sign-in the browser goes there with a session.
      if (!redirect) throw redirectNotAppPath();
      const locale: Locale | undefined = request.query.locale;
      try {
        const started = await flow.start(request.params.providerId, redirect, locale);
        return reply.header('set-cookie', started.cookie).redirect(started.location, 302);
      } catch (err) {
        if (!(err instanceof SsoFlowError)) throw err;
        return reply.redirect(flow.failurePage(err.code, redirect, locale), 302);
      }
    },
  );

  r.get(
    '/identity/sso/:providerId/callback',
    redirecting('Where the provider sends the browser back; goes on to the login page', CallbackQuery),
    async (request, reply) => {
      const ua = request.headers['user-agent'];
      const done = await flow.callback(request.params.providerId, request.query, request.headers.cookie, {
        ip: request.ip,
        ...(typeof ua === 'string' ? { userAgent: ua } : {}),
      });
      return reply.header('set-cookie', done.clearCookie).redirect(done.location, 302);
    },
  );
}
