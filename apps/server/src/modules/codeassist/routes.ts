import { CodeTokenRequestSchema, LoginSubmitRequestSchema } from '@assistente/contracts';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../lib/errors.ts';
import { appOrigin, isAppOrigin } from '../../lib/origin.ts';
import { codeassistService } from './service.ts';

/** Code-assist handoff (DESIGN §8), mounted at /api/v1/user_management. */
export async function codeassistRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = codeassistService(ctx);
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

  app.post('/login_submit', async (request) => {
    // Browsers always send Origin on a cross-origin POST; only the web app may start a handoff.
    const origin = request.headers.origin;
    if (origin !== undefined && !isAppOrigin(ctx.config, request, origin))
      throw forbidden('Origin not allowed');
    const body = LoginSubmitRequestSchema.parse(request.body);
    return service.loginSubmit(body, appOrigin(ctx.config, request));
  });

  app.post('/token', async (request) => {
    const body = CodeTokenRequestSchema.parse(request.body);
    return service.exchange(body, {
      ip: request.ip,
      ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
    });
  });
}
