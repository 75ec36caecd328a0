import { WsCloseCodes } from '@assistente/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AppContext, Channels } from '../../context.ts';
import type { AuthInvalidateMessage } from '../../lib/caller.ts';
import { isAppOrigin } from '../../lib/origin.ts';
import { errorResponses } from '../../plugins/routes.ts';
import { VIRTUAL_ACCOUNT_CHANGED } from '../embedded/index.ts';
import { socketOriginRefused } from './errors.ts';
import { AgentSocket } from './socket.ts';
import { registerAgentsWebsocket } from './websocket.ts';

/**
 * The agents websocket `GET /api/v1/agents/chat/` (docs/ARCHITECTURE.md#chat-message-data-path), with @fastify/websocket in its own
 * scope (the app's only websocket). A missing Origin is a non-browser client (the editor
 * extension): the token in the auth frame is what authenticates, never a cookie.
 */
export async function agentsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const agents = ctx.services.agents;
  if (!agents)
    throw new Error('agentsRoutes needs the agents service, built where the agents role is hosted');
  const sockets = new Set<AgentSocket>();

  // Revocation is immediate (docs/ARCHITECTURE.md#callers): re-check the sockets of a changed account at once.
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

  // A paused or deleted embed ends its visitors' sockets at once (their tokens are refused from now).
  const unsubscribeEmbeds = ctx.bus.subscribe(VIRTUAL_ACCOUNT_CHANGED, (raw) => {
    const id = (raw as { virtualAccountId?: unknown } | undefined)?.virtualAccountId;
    // After the visitors' cache (subscribed earlier) has dropped the embed.
    setImmediate(() => {
      for (const s of sockets) if (s.virtualAccountId && s.virtualAccountId === id) void s.recheck();
    });
  });

  // Every socket open here, signed in or still authenticating (docs/ARCHITECTURE.md#metrics).
  const unmeasure = ctx.metrics.measure('openWebsockets', () => sockets.size);

  app.addHook('onClose', async () => {
    unmeasure();
    unsubscribe();
    unsubscribeEmbeds();
    for (const s of sockets) s.close(WsCloseCodes.goingAway, 'Server shutting down');
  });

  const checkOrigin = async (request: FastifyRequest, reply: FastifyReply) => {
    // Only the app's own pages may open the socket (cross-site websocket hijacking).
    const origin = request.headers.origin;
    if (origin !== undefined && !isAppOrigin(ctx.config, request, origin)) {
      const err = socketOriginRefused();
      return reply.status(err.status).send(err.toBody());
    }
  };

  const urls = ['/agents/chat/', '/agents/chat'];
  await registerAgentsWebsocket(
    app,
    urls.map((u) => app.prefix + u),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const url of urls) {
    // `wsHandler` rather than `websocket: true`: the latter makes @fastify/websocket hide the route
    // from the OpenAPI document. `handler` answers a plain GET as `websocket: true` would.
    r.route({
      method: 'GET',
      url,
      config: { auth: 'public' },
      schema: {
        tags: ['agents'],
        summary: 'The agents websocket: chat with the models, streamed',
        description:
          'Upgrade to a websocket. It takes no bearer token: its first frame, ' +
          '`{"type":"auth","token":"<id token>"}` within 5 s, authenticates the socket (a token never ' +
          'goes in the URL); without it the socket closes with 4401, and with 4403 when the account ' +
          'loses access. A browser may open it from the app’s own origin only; a client without Origin ' +
          '(the editor extension) goes on to the auth frame. Frames are JSON, each checked against its ' +
          'schema: a bad one gets an `error` frame, one over 1 MiB closes the socket (1009).',
        // Served with and without the slash: documented once.
        hide: url === '/agents/chat',
        response: {
          101: z.undefined().describe('Switching Protocols: the websocket upgrade'),
          404: z.undefined().describe('A plain GET, without the upgrade (no body)'),
          ...errorResponses('FORBIDDEN'),
        },
      },
      preValidation: checkOrigin,
      handler: (_request, reply) => reply.code(404).send(),
      wsHandler: (socket, request) => {
        new AgentSocket(socket, ctx, agents, sockets, request.ip);
      },
    });
  }
}
