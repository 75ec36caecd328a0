import type { ClientFrame, ServerFrame } from '@assistente/contracts';

/**
 * Keeps an answer in the view across a dropped connection (a laptop waking up, a proxy restarting):
 * when the socket closes mid-answer it asks again for that chat (`chat.subscribe`, which also makes
 * the client reconnect, with backoff while the server is away). The server answers with the text so
 * far (`message.snapshot`) and the deltas go on; an answer that ended meanwhile is not in
 * `chat.subscribed`'s list, and its stored text and status are read back instead.
 */
export class StreamResume {
  private streaming: { chatId: string; messageId: string } | null = null;
  private seq = 0;

  constructor(
    private readonly deps: {
      send: (frame: ClientFrame) => void;
      /** Reads the chat's messages back (the answer ended while the socket was down). */
      reload: (chatId: string) => void;
    },
  ) {}

  onFrame(frame: ServerFrame): void {
    if (frame.type === 'message.created' && frame.message.role === 'assistant') {
      this.streaming = { chatId: frame.chatId, messageId: frame.message.messageId };
    } else if (frame.type === 'message.snapshot') {
      this.streaming = { chatId: frame.chatId, messageId: frame.message.messageId };
    } else if (frame.type === 'message.done' && frame.messageId === this.streaming?.messageId) {
      this.streaming = null;
    } else if (
      frame.type === 'chat.subscribed' &&
      this.streaming?.chatId === frame.chatId &&
      !frame.streaming.includes(this.streaming.messageId)
    ) {
      const { chatId } = this.streaming;
      this.streaming = null;
      this.deps.reload(chatId);
    }
  }

  onStatus(connected: boolean): void {
    if (connected || !this.streaming) return;
    this.deps.send({
      type: 'chat.subscribe',
      requestId: `resume-${++this.seq}`,
      chatId: this.streaming.chatId,
    });
  }

  /** Another chat is shown: its answers are followed from its own messages. */
  forget(): void {
    this.streaming = null;
  }
}
