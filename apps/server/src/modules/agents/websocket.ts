import { WsCloseCodes, WsLimits } from '@assistente/contracts';
import type { WebsocketPluginOptions } from '@fastify/websocket';

/**
 * Options for @fastify/websocket, registered once on the app: frames over 1 MiB close the socket
 * with 1009 (ws's maxPayload), and a client breaking the protocol is logged quietly, not as a
 * server error.
 */
export const websocketOptions: WebsocketPluginOptions = {
  options: { maxPayload: WsLimits.maxFrameBytes, perMessageDeflate: false },
  errorHandler(error, socket, request) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('WS_ERR_'))
      request.log.debug({ err: error }, 'websocket protocol error');
    else request.log.warn({ err: error }, 'websocket error');
    socket.terminate();
  },
  // "Going away" tells clients to reconnect (with backoff) rather than treat it as an error.
  preClose(done) {
    for (const client of this.websocketServer.clients)
      client.close(WsCloseCodes.goingAway, 'Server shutting down');
    this.websocketServer.close(() => done());
  },
};
