import { McpConnectOutcomes } from '@assistente/contracts';

// What the `/integration/mcp-connected` popup page and the window that opened it say to each other
// (docs/ARCHITECTURE.md#mcp-servers): kept apart so the page's chunk carries nothing else.
//
// Two ways, because the opener link does not always survive: the app's pages are sent with
// `Cross-Origin-Opener-Policy: same-origin`, and a popup that goes through another site's sign-in
// page comes back without `window.opener` (and looks closed to its opener). A BroadcastChannel
// reaches every page of this origin whatever the opener; the opener answers on it so the popup
// knows it was heard and may close.

/** How a connection attempt ended, as the server's callback tells the page. */
export type McpConnectOutcome = (typeof McpConnectOutcomes)[number];

/** The `type` of the message the page posts to its opener: `{ type, status }`, same origin only. */
export const MCP_CONNECTED_MESSAGE = 'assistente:mcp-connected';
/** The opener's answer on the channel: it heard the outcome. */
export const MCP_CONNECTED_HEARD = 'assistente:mcp-connected-heard';
const CHANNEL = 'assistente:mcp-connect';

/** An outcome from an untrusted value (a query parameter, a message): anything unknown failed. */
export function connectOutcome(value: unknown): McpConnectOutcome {
  return McpConnectOutcomes.find((o) => o === value) ?? 'failed';
}

/** The outcome a message's data carries, when it is the mcp-connected page's. */
export function connectOutcomeIn(data: unknown): McpConnectOutcome | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, status } = data as { type?: unknown; status?: unknown };
  return type === MCP_CONNECTED_MESSAGE ? connectOutcome(status) : null;
}

/** The outcome a window `message` event carries, when it is the mcp-connected page's, of this origin. */
export function connectOutcomeOf(event: MessageEvent): McpConnectOutcome | null {
  return event.origin === window.location.origin ? connectOutcomeIn(event.data) : null;
}

/** The channel between the popup and its opener, where the browser has BroadcastChannel. */
export function connectChannel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
}
