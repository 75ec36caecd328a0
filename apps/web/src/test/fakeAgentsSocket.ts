import type { SocketLike } from '../features/chats/lib/agentsSocket.ts';

/** The agents websocket as a test drives it: frames sent are kept parsed, frames received are handed in. */
export class FakeAgentsSocket implements SocketLike {
  readyState = 0;
  sent: Array<{ type: string } & Record<string, unknown>> = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data) as { type: string });
  }
  close() {
    this.readyState = 3;
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}
