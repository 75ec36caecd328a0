import type { ServerFrame } from '@assistente/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type Bus, subscribeLive } from '../../lib/bus.ts';

/** Bus channel carrying every server frame about one user's chats, to all their sockets on every replica. */
const userChannel = (userId: string) => `agents.user.${userId}`;

/** A socket of a signed-in user, as the hub sees it. */
export interface HubClient {
  readonly userId: string;
  /** Sends an already-serialised frame. */
  sendRaw(raw: string): void;
}

/**
 * Fan-out of a user's frames: a generation publishes once on the user's channel, and every
 * socket of that user — this tab, other tabs, other replicas through Redis — gets the frame.
 * One bus subscription per user with sockets on this process; each frame is serialised once.
 */
export class AgentsHub {
  private readonly users = new Map<
    string,
    { clients: Set<HubClient>; unsubscribe: () => void; live: Promise<void> }
  >();

  constructor(
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Adds a socket to its user's fan-out. Resolves once the user's subscription delivers: with
   * Redis, SUBSCRIBE is asynchronous, and a frame published before it lands would be lost (a
   * `chat.subscribe` right after `ready` must not miss its snapshot).
   */
  join(client: HubClient): Promise<void> {
    let entry = this.users.get(client.userId);
    if (!entry) {
      const clients = new Set<HubClient>();
      const { live, unsubscribe } = subscribeLive(this.bus, userChannel(client.userId), (message) => {
        const raw = JSON.stringify(message);
        for (const c of clients) c.sendRaw(raw);
      });
      entry = { clients, unsubscribe, live };
      this.users.set(client.userId, entry);
    }
    entry.clients.add(client);
    return entry.live;
  }

  leave(client: HubClient): void {
    const entry = this.users.get(client.userId);
    if (!entry) return;
    entry.clients.delete(client);
    if (entry.clients.size === 0) {
      entry.unsubscribe();
      this.users.delete(client.userId);
    }
  }

  /** Every socket of this user on this process. */
  clientsOf(userId: string): ReadonlySet<HubClient> {
    return this.users.get(userId)?.clients ?? new Set();
  }

  allClients(): HubClient[] {
    return [...this.users.values()].flatMap((e) => [...e.clients]);
  }

  /** Publishes a frame to all of a user's sockets; never throws (a lost frame is recovered by chat.subscribe). */
  publish(userId: string, frame: ServerFrame): void {
    this.bus.publish(userChannel(userId), frame).catch((err: unknown) => {
      this.log.warn({ err, type: frame.type }, 'agents: could not publish a frame');
    });
  }

  close(): void {
    for (const entry of this.users.values()) entry.unsubscribe();
    this.users.clear();
  }
}
