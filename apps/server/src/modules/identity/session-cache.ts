/** A session as the hot path sees it; `absent`: no such row (never stored, or long gone). */
export interface SessionState {
  active: boolean;
  uid?: string;
  absent?: boolean;
}

/**
 * In-process memo of "is this session live?", the check every API request makes. Entries are
 * dropped when the bus says an account changed; the TTL only bounds staleness if a bus message
 * is lost (Redis pub/sub delivers at most once).
 */
export class SessionCache {
  private readonly entries = new Map<string, SessionState & { expires: number }>();
  private readonly byUid = new Map<string, Set<string>>();
  private readonly pending = new Map<string, Promise<SessionState>>();
  /** Bumped on every invalidation, so a lookup that raced one is not cached stale. */
  private epoch = 0;

  constructor(
    private readonly load: (sessionId: string) => Promise<SessionState>,
    private readonly opts = { activeTtlMs: 15_000, inactiveTtlMs: 60_000, maxEntries: 50_000 },
  ) {}

  /** The cached answer, if there is a fresh one; undefined means "ask `get`". */
  peek(sessionId: string): boolean | undefined {
    const hit = this.entries.get(sessionId);
    return hit && hit.expires > Date.now() ? hit.active : undefined;
  }

  async get(sessionId: string): Promise<boolean> {
    const hit = this.entries.get(sessionId);
    if (hit && hit.expires > Date.now()) return hit.active;
    return (await this.state(sessionId)).active;
  }

  /** As `get`, telling a session that ended from one that was never stored. */
  state(sessionId: string): Promise<SessionState> {
    const hit = this.entries.get(sessionId);
    if (hit && hit.expires > Date.now()) return Promise.resolve(hit);
    // Concurrent requests of one session share a single query.
    let p = this.pending.get(sessionId);
    if (!p) {
      p = this.fill(sessionId).finally(() => this.pending.delete(sessionId));
      this.pending.set(sessionId, p);
    }
    return p;
  }

  private async fill(sessionId: string): Promise<SessionState> {
    const epoch = this.epoch;
    const state = await this.load(sessionId);
    if (epoch === this.epoch) this.put(sessionId, state);
    return state;
  }

  private put(sessionId: string, state: SessionState): void {
    this.drop(sessionId);
    while (this.entries.size >= this.opts.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
    }
    const ttl = state.active ? this.opts.activeTtlMs : this.opts.inactiveTtlMs;
    this.entries.set(sessionId, { ...state, expires: Date.now() + ttl });
    if (state.uid) {
      let set = this.byUid.get(state.uid);
      if (!set) {
        set = new Set();
        this.byUid.set(state.uid, set);
      }
      set.add(sessionId);
    }
  }

  private drop(sessionId: string): void {
    const e = this.entries.get(sessionId);
    if (!e) return;
    this.entries.delete(sessionId);
    if (e.uid) {
      const set = this.byUid.get(e.uid);
      set?.delete(sessionId);
      if (set?.size === 0) this.byUid.delete(e.uid);
    }
  }

  /** Forgets one session: it was just stored. */
  forget(sessionId: string): void {
    this.epoch++;
    this.pending.delete(sessionId);
    this.drop(sessionId);
  }

  /** Forgets one account's sessions, or everything when no uid is given. */
  invalidate(uid?: string): void {
    this.epoch++;
    // In-flight lookups may have read the old state: let the next caller query again.
    this.pending.clear();
    if (uid === undefined) {
      this.entries.clear();
      this.byUid.clear();
      return;
    }
    for (const sid of this.byUid.get(uid) ?? []) this.entries.delete(sid);
    this.byUid.delete(uid);
  }

  get size(): number {
    return this.entries.size;
  }
}
