import type { HostMessage, ViewTexts, WebviewMessage } from '../chat/protocol.ts';
import { refusalText } from '../chat/refusal.ts';
import { renderMarkdown } from './markdown.ts';
import './style.css';

declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void };
const vscode = acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);

const app = document.getElementById('app')!;
let texts: ViewTexts | null = null;
let streamingId: string | null = null;
/** Text of each answer being streamed, re-rendered as a whole at most once per frame. */
const buffers = new Map<string, string>();
let renderQueued = false;

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el: HTMLElementTagNameMap[K] = document.createElement(tag);
  Object.assign(el, props);
  el.append(...children);
  return el;
}

const log = h('div', { className: 'messages', role: 'log', ariaLive: 'polite' });
const input = h('textarea', { rows: 3, id: 'prompt' });
const sendButton = h('button', { type: 'button', className: 'primary' });
const stopButton = h('button', { type: 'button', hidden: true });
const chatList = h('select', { id: 'chats' });
const modelPicker = h('select', { id: 'model' });
const santitoPicker = h('select', { id: 'santito' });
const newChat = h('button', { type: 'button' });
const notice = h('div', { className: 'notice', role: 'status' });

function option(value: string, label: string) {
  return h('option', { value, textContent: label });
}

function setStreaming(id: string | null) {
  streamingId = id;
  stopButton.hidden = id === null;
  sendButton.hidden = id !== null;
}

function messageElement(id: string, role: string): HTMLElement {
  let el = log.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
  if (!el) {
    el = h('div', { className: `message ${role}` });
    el.dataset.messageId = id;
    el.append(h('div', { className: 'body' }));
    log.append(el);
  }
  return el;
}

function renderBody(el: HTMLElement, text: string, role: string) {
  const body = el.querySelector<HTMLElement>('.body')!;
  if (role === 'user') {
    body.textContent = text;
    return;
  }
  for (const block of renderMarkdown(text, body)) {
    const copy = h('button', { type: 'button', textContent: texts?.copy ?? 'Copy' });
    copy.addEventListener('click', () => {
      post({ type: 'copy', code: block.code });
      copy.textContent = texts?.copied ?? 'Copied';
    });
    const insert = h('button', { type: 'button', textContent: texts?.insert ?? 'Insert' });
    insert.addEventListener('click', () => post({ type: 'insert', code: block.code }));
    const file = h('button', { type: 'button', textContent: texts?.newFile ?? 'New file' });
    file.addEventListener('click', () =>
      post({ type: 'newFile', code: block.code, language: block.language }),
    );
    block.toolbar.append(copy, insert, file);
  }
}

function flush() {
  renderQueued = false;
  for (const [id, text] of buffers) {
    const el = messageElement(id, 'assistant');
    renderBody(el, text, 'assistant');
    // The moment the first streamed text reached the screen (end-to-end latency measure).
    if (!el.dataset.firstPaint && text)
      el.dataset.firstPaint = String(performance.timeOrigin + performance.now());
  }
  log.scrollTop = log.scrollHeight;
}

function queueRender() {
  if (renderQueued) return;
  renderQueued = true;
  // The first delta of an answer is drawn at once; later ones are batched per frame.
  if (streamingId && !messageElement(streamingId, 'assistant').dataset.firstPaint) flush();
  else requestAnimationFrame(flush);
}

function layout(t: ViewTexts, signedIn: boolean) {
  texts = t;
  if (!signedIn) {
    const button = h('button', { type: 'button', className: 'primary', textContent: t.signIn });
    button.addEventListener('click', () => post({ type: 'signIn' }));
    app.replaceChildren(h('div', { className: 'signed-out' }, h('p', { textContent: t.signInHint }), button));
    return;
  }
  if (app.contains(log)) return;
  sendButton.textContent = t.send;
  stopButton.textContent = t.stop;
  newChat.textContent = t.newChat;
  input.placeholder = t.placeholder;
  input.setAttribute('aria-label', t.placeholder);
  chatList.setAttribute('aria-label', t.chats);
  modelPicker.setAttribute('aria-label', t.model);
  santitoPicker.setAttribute('aria-label', t.santito);
  app.replaceChildren(
    h('div', { className: 'toolbar' }, chatList, newChat),
    log,
    notice,
    h('div', { className: 'pickers' }, santitoPicker, modelPicker),
    h('div', { className: 'composer' }, input, h('div', { className: 'actions' }, stopButton, sendButton)),
  );
}

function submit() {
  const content = input.value.trim();
  if (!content || streamingId) return;
  post({
    type: 'send',
    content,
    ...(modelPicker.value ? { model: modelPicker.value } : {}),
    ...(santitoPicker.value ? { agentId: santitoPicker.value } : {}),
  });
  input.value = '';
}

sendButton.addEventListener('click', submit);
stopButton.addEventListener('click', () => post({ type: 'stop' }));
newChat.addEventListener('click', () => post({ type: 'newChat' }));
chatList.addEventListener('change', () => {
  if (chatList.value) post({ type: 'openChat', chatId: chatList.value });
  else post({ type: 'newChat' });
});
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit();
  }
});

function onMessage(m: HostMessage) {
  switch (m.type) {
    case 'state': {
      layout(m.texts, m.signedIn);
      if (!m.signedIn) return;
      const current = chatList.value;
      chatList.replaceChildren(
        option('', m.texts.newChat),
        ...m.chats.map((c) => option(c.chatId, c.title || '…')),
      );
      chatList.value = current;
      const model = modelPicker.value;
      modelPicker.replaceChildren(
        option('', m.texts.defaultModel),
        ...m.models.map((x) => option(x.id, x.name)),
      );
      modelPicker.value = model;
      santitoPicker.replaceChildren(
        option('', m.texts.noSantito),
        ...m.santitos.map((x) => option(x.id, x.name)),
      );
      santitoPicker.hidden = m.santitos.length === 0;
      if (!log.childElementCount) log.append(h('p', { className: 'empty', textContent: m.texts.empty }));
      return;
    }
    case 'chat':
      buffers.clear();
      setStreaming(null);
      log.replaceChildren();
      chatList.value = m.chatId ?? '';
      for (const msg of m.messages)
        renderBody(messageElement(msg.messageId, msg.role), msg.content, msg.role);
      if (!m.messages.length && texts) log.append(h('p', { className: 'empty', textContent: texts.empty }));
      return;
    case 'notice':
      notice.textContent = m.text;
      return;
    case 'frame': {
      const f = m.frame;
      if (f.type === 'chat.created') {
        chatList.prepend(option(f.chat.chatId, f.chat.title || '…'));
        chatList.value = f.chat.chatId;
      } else if (f.type === 'message.created') {
        log.querySelector('.empty')?.remove();
        notice.textContent = '';
        const el = messageElement(f.message.messageId, f.message.role);
        if (f.message.role === 'assistant') {
          setStreaming(f.message.messageId);
          el.setAttribute('aria-busy', 'true');
          buffers.set(f.message.messageId, f.message.content);
        } else renderBody(el, f.message.content, 'user');
      } else if (f.type === 'message.snapshot') {
        setStreaming(f.message.messageId);
        buffers.set(f.message.messageId, f.message.content);
        queueRender();
      } else if (f.type === 'message.delta') {
        buffers.set(f.messageId, (buffers.get(f.messageId) ?? '') + f.delta);
        queueRender();
      } else if (f.type === 'message.done') {
        flush();
        buffers.delete(f.messageId);
        const el = messageElement(f.messageId, 'assistant');
        el.removeAttribute('aria-busy');
        el.dataset.status = f.status;
        if (f.status !== 'complete' && texts)
          el.append(
            h('p', {
              className: 'status',
              textContent:
                f.status === 'stopped'
                  ? texts.stopped
                  : texts.failed.replace('{0}', f.error?.message ?? f.finishReason),
            }),
          );
        if (f.messageId === streamingId) setStreaming(null);
      } else if (f.type === 'chat.updated') {
        const o = chatList.querySelector<HTMLOptionElement>(`option[value="${CSS.escape(f.chat.chatId)}"]`);
        if (o) o.textContent = f.chat.title || '…';
      } else if (f.type === 'error') {
        notice.textContent = texts ? refusalText(f, texts, texts.language) : f.message;
      }
      return;
    }
  }
}

window.addEventListener('message', (e: MessageEvent<HostMessage>) => onMessage(e.data));
post({ type: 'ready' });
