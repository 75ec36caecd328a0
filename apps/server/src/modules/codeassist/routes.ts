import { CodeTokenRequestSchema, LoginSubmitRequestSchema } from '@assistente/contracts';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../lib/errors.ts';
import { codeassistService } from './service.ts';

/** Code-assist handoff (DESIGN §8), mounted at /api/v1/user_management. */
export async function codeassistRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = codeassistService(ctx);
  const webOrigin = new URL(ctx.config.publicUrl).origin;

  // Credentialed CORS for the web app's origin only; any other origin gets no CORS headers.
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
    if (origin !== undefined && origin !== webOrigin) throw forbidden('Origin not allowed');
    const body = LoginSubmitRequestSchema.parse(request.body);
    return service.loginSubmit(body);
  });

  app.post('/token', async (request) => {
    const body = CodeTokenRequestSchema.parse(request.body);
    return service.exchange(body, {
      ip: request.ip,
      ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
    });
  });
}
