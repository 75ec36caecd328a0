import { randomBytes } from 'node:crypto';
import type { ChatSendFrame, RuntimeConfig, ServerFrame } from '@assistente/contracts';
import * as vscode from 'vscode';
import type { AssistenteAuthProvider } from '../auth/provider.ts';
import { AgentsClient } from './agents.ts';
import type { ChatApi } from './api.ts';
import { type HostMessage, parseWebviewMessage, type ViewTexts, type WebviewMessage } from './protocol.ts';
import { refusalText } from './refusal.ts';
import { StreamResume } from './resume.ts';

export const VIEW_ID = 'assistente.chat';

function texts(): ViewTexts {
  return {
    signIn: vscode.l10n.t('Sign in'),
    signInHint: vscode.l10n.t('Sign in to chat with Assistente beside your code.'),
    newChat: vscode.l10n.t('New chat'),
    chats: vscode.l10n.t('Chats'),
    send: vscode.l10n.t('Send'),
    stop: vscode.l10n.t('Stop'),
    placeholder: vscode.l10n.t('Ask Assistente… (Enter sends, Shift+Enter breaks the line)'),
    copy: vscode.l10n.t('Copy'),
    copied: vscode.l10n.t('Copied'),
    insert: vscode.l10n.t('Insert at cursor'),
    newFile: vscode.l10n.t('New file'),
    model: vscode.l10n.t('Model'),
    defaultModel: vscode.l10n.t('Default model'),
    santito: vscode.l10n.t('Santito'),
    noSantito: vscode.l10n.t('No santito'),
    empty: vscode.l10n.t('Ask anything, or select code and run “Assistente: Ask about selection”.'),
    stopped: vscode.l10n.t('Stopped.'),
    failed: vscode.l10n.t('The answer failed: {0}'),
    budgetExceeded: vscode.l10n.t('Your usage budget is used up. Sending works again on {0}.'),
    priceMissing: vscode.l10n.t(
      'This model has no price yet and a money budget applies. Ask an Admin to price it.',
    ),
    modelNotAllowed: vscode.l10n.t('An Admin has closed this model to you. Choose another model.'),
    language: vscode.env.language,
  };
}

/**
 * The Assistente chat view: a webview with a strict CSP that renders, and the extension host, which holds
 * the tokens and talks to the agents websocket and the REST API on its behalf.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private chatId: string | null = null;
  private readonly agents: AgentsClient;
  private readonly resume: StreamResume;
  private readonly listeners = new Set<(frame: ServerFrame) => void>();
  private lastRequest = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly auth: AssistenteAuthProvider,
    private readonly api: ChatApi,
    config: () => Promise<RuntimeConfig>,
  ) {
    this.agents = new AgentsClient({
      url: async () => (await config()).agentsWsUrl,
      token: () => auth.accessToken(),
      onUnauthenticated: () => auth.verify(),
      onFrame: (frame) => this.onFrame(frame),
      onStatus: (connected) => this.resume.onStatus(connected),
    });
    this.resume = new StreamResume({
      send: (frame) => this.agents.send(frame),
      reload: (chatId) => {
        if (chatId === this.chatId) void this.open(chatId);
      },
    });
    auth.onDidChangeSessions(() => {
      if (!auth.account()) this.agents.reset();
      void this.pushState();
    });
  }

  dispose(): void {
    this.agents.dispose();
  }

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    this.view = view;
    view.webview.options = { enableScripts: true, localResourceRoots: [] };
    view.webview.onDidReceiveMessage((data: unknown) => {
      const message = parseWebviewMessage(data);
      if (message) void this.handle(message);
    });
    view.webview.html = await this.html();
  }

  /**
   * The view's page with its script and style inline under one nonce: nothing is fetched, not even from the
   * extension (browser-hosted VS Code serves webview resources through a service worker that is not always
   * ready on the first view).
   */
  private async html(): Promise<string> {
    const nonce = randomBytes(16).toString('base64');
    const read = async (name: string) =>
      new TextDecoder().decode(
        await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.extensionUri, 'dist', name)),
      );
    const [script, style] = await Promise.all([read('webview.js'), read('webview.css')]);
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      'img-src data:',
    ].join('; ');
    // A `</script` or `</style` inside the code (only ever in a string) must not end the element early.
    const inline = (text: string) => text.replace(/<\/(script|style)/gi, '<\\/$1');
    return `<!doctype html><html lang="${vscode.env.language}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">${inline(style)}</style></head>
<body><div id="app"></div><script nonce="${nonce}">${inline(script)}</script></body></html>`;
  }

  private post(message: HostMessage): void {
    void this.view?.webview.postMessage(message);
  }

  /** Shows the view (for the selection commands). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  }

  /** Sends a message into the open chat (a new one when none is open), as if typed in the view. */
  async ask(content: string): Promise<void> {
    await this.reveal();
    this.send({ type: 'send', content });
  }

  /** Runs one exchange in a new chat and resolves with the whole answer (the edit command). */
  complete(content: string): Promise<string> {
    const requestId = this.requestId();
    return new Promise((resolve, reject) => {
      let chatId: string | null = null;
      let messageId: string | null = null;
      let text = '';
      const listener = (f: ServerFrame) => {
        if (f.type === 'chat.created' && f.requestId === requestId) chatId = f.chat.chatId;
        else if (f.type === 'message.created' && f.chatId === chatId && f.message.role === 'assistant')
          messageId = f.message.messageId;
        else if (f.type === 'message.delta' && f.messageId === messageId) text += f.delta;
        else if (f.type === 'message.done' && f.messageId === messageId) {
          this.listeners.delete(listener);
          if (f.status === 'complete') resolve(text);
          else reject(new Error(f.error?.message ?? f.status));
        } else if (f.type === 'error' && f.requestId === requestId) {
          this.listeners.delete(listener);
          reject(new Error(refusalText(f, texts(), vscode.env.language)));
        }
      };
      this.listeners.add(listener);
      this.agents.send({ type: 'chat.send', requestId, chatId: null, content });
    });
  }

  private requestId(): string {
    this.lastRequest += 1;
    return `vscode-${Date.now().toString(36)}-${this.lastRequest}`;
  }

  private onFrame(frame: ServerFrame): void {
    for (const l of this.listeners) l(frame);
    if (frame.type === 'chat.created' && frame.requestId?.startsWith('view-')) {
      this.chatId = frame.chat.chatId;
      void this.pushState();
    }
    if ('chatId' in frame && frame.chatId === this.chatId) this.resume.onFrame(frame);
    if ('chatId' in frame && frame.chatId !== this.chatId) return;
    if (frame.type === 'chat.created' && frame.chat.chatId !== this.chatId) return;
    this.post({ type: 'frame', frame });
  }

  private send(m: Extract<WebviewMessage, { type: 'send' }>): void {
    const frame: ChatSendFrame = {
      type: 'chat.send',
      requestId: `view-${this.requestId()}`,
      chatId: this.chatId,
      content: m.content,
      ...(m.agentId ? { agentId: m.agentId } : {}),
      ...(m.model ? { params: { model: m.model } } : {}),
    };
    this.agents.send(frame);
  }

  private async handle(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        return this.pushState();
      case 'signIn':
        await vscode.commands.executeCommand('assistente.signIn');
        return;
      case 'newChat':
        this.chatId = null;
        this.resume.forget();
        this.post({ type: 'chat', chatId: null, messages: [] });
        return;
      case 'openChat':
        return this.open(m.chatId);
      case 'send':
        return this.send(m);
      case 'stop':
        if (this.chatId) this.agents.send({ type: 'chat.stop', chatId: this.chatId });
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(m.code);
        return;
      case 'insert': {
        const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme !== 'output');
        if (!editor) {
          void vscode.window.showWarningMessage(vscode.l10n.t('Open a file to insert the code into.'));
          return;
        }
        await editor.edit((b) => b.replace(editor.selection, m.code));
        return;
      }
      case 'newFile': {
        const doc = await vscode.workspace.openTextDocument({
          content: m.code,
          language: m.language || 'plaintext',
        });
        await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
        return;
      }
    }
  }

  private async open(chatId: string): Promise<void> {
    try {
      const messages = await this.api.messages(chatId);
      if (chatId !== this.chatId) this.resume.forget();
      this.chatId = chatId;
      this.post({
        type: 'chat',
        chatId,
        messages: messages.map(({ messageId, role, content, status }) => ({
          messageId,
          role,
          content,
          status,
        })),
      });
      if (messages.some((x) => x.status === 'streaming'))
        this.agents.send({ type: 'chat.subscribe', chatId });
    } catch (err) {
      this.post({ type: 'notice', text: err instanceof Error ? err.message : String(err) });
    }
  }

  private async pushState(): Promise<void> {
    if (!this.view) return;
    const account = this.auth.account();
    if (!account) {
      this.post({
        type: 'state',
        signedIn: false,
        chats: [],
        models: [],
        defaultModel: null,
        santitos: [],
        texts: texts(),
      });
      return;
    }
    // One list failing (server busy, santitos off) still leaves the view usable.
    const [chats, models, santitos] = await Promise.allSettled([
      this.api.listChats(),
      this.api.models(),
      this.api.santitos(),
    ]);
    this.post({
      type: 'state',
      signedIn: true,
      account: account.name,
      chats: chats.status === 'fulfilled' ? chats.value.map(({ chatId, title }) => ({ chatId, title })) : [],
      models: models.status === 'fulfilled' ? models.value.models.map(({ id, name }) => ({ id, name })) : [],
      defaultModel: models.status === 'fulfilled' ? models.value.defaultModel : null,
      santitos:
        santitos.status === 'fulfilled' ? santitos.value.map((s) => ({ id: s._id, name: s.name })) : [],
      texts: texts(),
    });
    const failed = [chats, models, santitos].find((r) => r.status === 'rejected');
    if (failed?.status === 'rejected')
      this.post({
        type: 'notice',
        text: String(failed.reason instanceof Error ? failed.reason.message : failed.reason),
      });
  }
}
