import { describe, expect, it } from 'vitest';
import { parseWebviewMessage } from './protocol.ts';

describe('messages from the chat webview', () => {
  it('accepts each kind the view sends', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'signIn' },
      { type: 'newChat' },
      { type: 'openChat', chatId: 'c1' },
      { type: 'send', content: 'Oi', model: 'fixture-small', agentId: 's1' },
      { type: 'stop' },
      { type: 'copy', code: 'x' },
      { type: 'insert', code: 'x' },
      { type: 'newFile', code: 'x', language: 'ts' },
    ]) {
      expect(parseWebviewMessage(m), m.type).toEqual(m);
    }
  });

  it('ignores anything malformed, unknown or carrying extra fields', () => {
    for (const m of [
      null,
      'send',
      { type: 'eval', code: '1' },
      { type: 'send', content: '   ' },
      { type: 'send', content: 'x'.repeat(100_001) },
      { type: 'openChat' },
      { type: 'openChat', chatId: '' },
      { type: 'stop', token: 'stolen' },
      { type: 'newFile', code: 'x' },
    ]) {
      expect(parseWebviewMessage(m), JSON.stringify(m)?.slice(0, 40)).toBeUndefined();
    }
  });
});
