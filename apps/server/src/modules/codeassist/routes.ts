import {
  CodeTokenRequestSchema,
  CodeTokenResponseSchema,
  LoginSubmitRequestSchema,
  LoginSubmitResponseSchema,
} from '@assistente/contracts';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../lib/errors.ts';
import { appOrigin, isAppOrigin } from '../../lib/origin.ts';
import { errorResponses } from '../../plugins/routes.ts';

/** Code-assist handoff (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension), mounted at /api/v1/user_management. */
export async function codeassistRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.codeassist;
  // Credentialed CORS for a web app on another host (SERVICES split, PUBLIC_URL set); a page served
  // by this process is same-origin and needs none. Any other origin gets no CORS headers.
  const webOrigin = new URL(ctx.config.publicUrl).origin;
  await app.register(cors, {
    origin: (origin, cb) => cb(null, origin === webOrigin),
    credentials: true,
    methods: ['POST'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Cache-Control',
      'X-Endpoint-API-Userinfo',
      'Domain',
      'Department',
    ],
    maxAge: 600,
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  // Both exchanges carry their own proof (an id token in the body, a code and its verifier), not a
  // bearer token.
  const config = { auth: 'public' } as const;
  const tags = ['codeassist'];

  r.post(
    '/login_submit',
    {
      config,
      schema: {
        tags,
        summary: 'Mint a single-use code for the editor from the signed-in web session',
        description:
          'Sent by the web app’s login page (credentialed CORS from its origin) with the user’s id and ' +
          'refresh tokens; answers the login page address with `code` and `state` added.',
        body: LoginSubmitRequestSchema,
        response: {
          200: LoginSubmitResponseSchema,
          ...errorResponses('BAD_REQUEST', 'UNAUTHENTICATED', 'FORBIDDEN'),
        },
      },
      // Before the body is validated: a page elsewhere is refused whatever it sends.
      preValidation: async (request) => {
        // Browsers always send Origin on a cross-origin POST; only the web app may start a handoff.
        const origin = request.headers.origin;
        if (origin !== undefined && !isAppOrigin(ctx.config, request, origin)) {
          throw forbidden('Origin not allowed');
        }
      },
    },
    async (request) => service.loginSubmit(request.body, appOrigin(ctx.config, request)),
  );

  r.post(
    '/token',
    {
      config,
      schema: {
        tags,
        summary: 'Trade a code and its PKCE verifier for a new editor session',
        body: CodeTokenRequestSchema,
        response: { 200: CodeTokenResponseSchema, ...errorResponses('INVALID_GRANT') },
      },
    },
    async (request) =>
      service.exchange(request.body, {
        ip: request.ip,
        ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
      }),
  );
}
