import { createServer } from 'node:http';
import { WsCloseCodes, WsLimits } from '@assistente/contracts';
import websocket, { type WebsocketPluginOptions } from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';

/**
 * Options for @fastify/websocket: frames over 1 MiB close the socket with 1009 (ws's maxPayload),
 * and a client breaking the protocol is logged quietly, not as a server error.
 */
const websocketOptions: WebsocketPluginOptions = {
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

const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * @fastify/websocket in the agents socket's own scope. Registered on the app, it puts two hooks
 * and a handler wrapper on every route (≈ 2.5 µs of each API request); here only the socket's
 * route has them. Its upgrade listener would still route every upgrade through the whole app, so
 * it listens to a server that never listens itself, handed only the upgrades for `paths` (full
 * paths, query left out); any other upgrade is answered 404 and closed.
 */
export async function registerAgentsWebsocket(
  scope: FastifyInstance,
  paths: readonly string[],
): Promise<void> {
  const upgrades = createServer();
  scope.server.on('upgrade', (request, socket, head) => {
    const url = request.url ?? '';
    const query = url.indexOf('?');
    if (paths.includes(query === -1 ? url : url.slice(0, query))) {
      upgrades.emit('upgrade', request, socket, head);
      return;
    }
    // Node leaves an upgraded socket without its error listener.
    socket.on('error', () => socket.destroy());
    socket.end(NOT_FOUND);
  });
  await scope.register(websocket, {
    ...websocketOptions,
    options: { ...websocketOptions.options, server: upgrades },
  });
}
