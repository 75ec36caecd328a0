import { WsCloseCodes } from '@assistente/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppContext, Channels } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { isAppOrigin } from '../../lib/origin.ts';
import type { AuthInvalidateMessage } from '../../plugins/auth.ts';
import { createAgentsService } from './service.ts';
import { AgentSocket } from './socket.ts';

/**
 * The agents websocket `GET /api/v1/agents/chat/` (DESIGN §5). Needs @fastify/websocket registered
 * on the app. A missing Origin is a non-browser client (the editor extension): the token in the
 * auth frame is what authenticates, never a cookie.
 */
export async function agentsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const agents = createAgentsService(ctx);
  const sockets = new Set<AgentSocket>();

  // Revocation is immediate (DESIGN §3): re-check the sockets of a changed account at once.
  const unsubscribe = ctx.bus.subscribe(Channels.authInvalidate, (raw) => {
    const msg = (raw ?? {}) as AuthInvalidateMessage;
    const email = msg.email?.toLowerCase();
    const domain = msg.domain?.toLowerCase();
    // After the caller caches (subscribed earlier) have dropped the account's state.
    setImmediate(() => {
      for (const s of sockets) {
        const who = s.identity;
        if (!who) continue;
        if (
          msg.all ||
          msg.uid === who.uid ||
          (email && email === who.email) ||
          (domain && domain === who.domain)
        ) {
          void s.recheck();
        }
      }
    });
  });

  app.addHook('onClose', async () => {
    unsubscribe();
    for (const s of sockets) s.close(WsCloseCodes.goingAway, 'Server shutting down');
    await agents.close();
  });

  const checkOrigin = async (request: FastifyRequest, reply: FastifyReply) => {
    // Only the app's own pages may open the socket (cross-site websocket hijacking).
    const origin = request.headers.origin;
    if (origin !== undefined && !isAppOrigin(ctx.config, request, origin)) {
      const err = new AppError('FORBIDDEN', 'This origin may not open the agents websocket');
      return reply.status(err.status).send(err.toBody());
    }
  };

  for (const url of ['/agents/chat/', '/agents/chat']) {
    app.get(url, { websocket: true, preValidation: checkOrigin }, (socket) => {
      new AgentSocket(socket, ctx, agents, sockets);
    });
  }
}
