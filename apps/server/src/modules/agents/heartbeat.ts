/**
 * One heartbeat decides whether an answer's process is alive (docs/ARCHITECTURE.md#chat-message-data-path):
 * a streaming answer is touched this often, and its user's generation slot renewed as often.
 */
export const HEARTBEAT_MS = 10_000;

/**
 * Three missed heartbeats: an answer untouched this long died with its process and is ended by the
 * sweep, and a slot not renewed this long is free. The same span for both, so a dead replica's users
 * can start answers again once its answers are shown as interrupted.
 */
export const STALE_AFTER_MS = 3 * HEARTBEAT_MS;
