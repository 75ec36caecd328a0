// The launcher script sites paste (docs/ARCHITECTURE.md#embedded-chat):
//   <script src="{PUBLIC_URL}/embed.js" data-virtual-account="{id}" async></script>
// It runs on someone else's page, so it keeps to itself: one closure, one host element whose
// shadow root holds every style and node, no listener outside it but `message` (checked by origin),
// and one global, `window.Assistente`. It is built on its own (vite.config.ts `embedScript`), bundled
// with its look (launcher.ts, shared with the Embeds tab's preview) and nothing else, and must stay
// ≤ 6 KB gzipped.
//
// The script loads `async`, so the page may call it before it is there. As analytics snippets do,
// the page defines a stub that queues its calls,
//   window.Assistente = window.Assistente || function () { (Assistente.q = Assistente.q || []).push(arguments) };
//   Assistente('identify', { id, name, email, ts, sig });
// and this script replays the queue, in order, when it takes the name over; then it fires
// `assistente:ready` on window. Once loaded, `Assistente.identify(…)` works as well.
import { LAUNCHER_CSS, LAUNCHER_HTML } from './launcher.ts';

interface SignedVisitor {
  id: string;
  name?: string;
  email?: string;
  ts: number;
  sig: string;
}

interface Commands {
  identify(visitor: SignedVisitor): void;
  open(): void;
  close(): void;
}

/** The page's queue stub before this script loads; this script's command function after. */
type AssistenteGlobal = ((...args: unknown[]) => void) & {
  q?: ArrayLike<unknown>[];
  /** Set on the loaded one: a second copy of the script leaves it alone. */
  loaded?: true;
} & Partial<Commands>;

interface SessionAnswer {
  virtualAccount?: { displayName?: string; color?: string };
}

(() => {
  const w = window as Window & { Assistente?: AssistenteGlobal };
  if (w.Assistente?.loaded) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const id = script?.dataset.virtualAccount;
  if (!script || !id) return;
  const base = new URL(script.src).origin;
  const sessionUrl = `${base}/api/v1/embedded/${encodeURIComponent(id)}/session`;
  const pageUrl = `${base}/embedded/${encodeURIComponent(id)}/chats`;

  let visitor: SignedVisitor | undefined;
  let frame: HTMLIFrameElement | undefined;
  let frameReady = false;
  let pending: unknown;
  let opened = false;
  // The frame's own storage is blocked where third-party storage is: the host keeps a copy of the
  // visitor's session for it (it made that session; it learns nothing new).
  const keyName = `assistente:${id}`;
  const kept = (): string | null => {
    try {
      return localStorage.getItem(keyName);
    } catch {
      return null;
    }
  };

  const host = document.createElement('div');
  host.setAttribute('data-assistente', '');
  const root = host.attachShadow({ mode: 'closed' });
  root.innerHTML = `<style>${LAUNCHER_CSS}</style>${LAUNCHER_HTML}`;
  const button = root.querySelector('.b') as HTMLButtonElement;
  const panel = root.querySelector('.p') as HTMLDivElement;
  const closer = root.querySelector('.x') as HTMLButtonElement;

  const lang = (document.documentElement.lang || navigator.language || '').toLowerCase();
  const label = lang.startsWith('pt') ? 'Fechar' : lang.startsWith('es') ? 'Cerrar' : 'Close';
  closer.setAttribute('aria-label', label);

  /** A session for this page's visitor, made here: only the host page's Origin proves the site. */
  async function newSession(): Promise<unknown> {
    const res = await fetch(sessionUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(visitor ? { visitor } : {}),
      credentials: 'omit',
    });
    const body = (await res.json()) as unknown;
    if (!res.ok) throw body;
    return body;
  }

  /** Hands the iframe a session; it keeps it in its own storage and refreshes it itself. */
  function deliver(message: unknown): void {
    if (frame?.contentWindow && frameReady) frame.contentWindow.postMessage(message, base);
    else pending = message;
  }

  // The session on its way, for whom, and whether it replaces the frame's. One at a time per
  // visitor: opening for a signed visitor asks for theirs while the new frame, finding no session,
  // asks too; two sessions crossing let the later one reset the chat the visitor had begun in.
  let asking: { visitor: SignedVisitor | undefined; replace: boolean } | undefined;

  function provide(replace: boolean): void {
    if (asking && asking.visitor === visitor) {
      asking.replace ||= replace;
      return;
    }
    const ask = { visitor, replace };
    asking = ask;
    // Only the latest ask is delivered: a visitor named again meanwhile has their own on its way.
    const latest = () => {
      if (asking !== ask) return false;
      asking = undefined;
      return true;
    };
    newSession().then(
      (session) => latest() && deliver({ type: 'assistente:session', session, replace: ask.replace }),
      (error: unknown) => latest() && deliver({ type: 'assistente:session-error', error }),
    );
  }

  window.addEventListener('message', (event) => {
    if (event.origin !== base || !frame || event.source !== frame.contentWindow) return;
    const data = event.data as { type?: unknown } | null;
    if (data?.type === 'assistente:ready') {
      frameReady = true;
      // A page (re)starting has no bar yet: the panel's own close shows until it says otherwise.
      panel.classList.remove('f');
      const waiting = pending as { type?: unknown } | undefined;
      pending = undefined;
      // A session made while the frame loaded is the one it needs. Offered the kept copy first, a
      // frame without one would ask again, and a second session would follow the first.
      if (waiting?.type !== 'assistente:session') deliver({ type: 'assistente:restore', record: kept() });
      if (waiting) deliver(waiting);
    } else if (data?.type === 'assistente:need-session') {
      provide(false);
    } else if (data?.type === 'assistente:keep') {
      const record = (data as { record?: unknown }).record;
      try {
        if (typeof record === 'string') localStorage.setItem(keyName, record);
        else localStorage.removeItem(keyName);
      } catch {
        // Blocked here too: the session lasts as long as the page.
      }
    } else if (data?.type === 'assistente:close') {
      api.close();
    } else if (data?.type === 'assistente:bar') {
      panel.classList.toggle('f', (data as { shown?: unknown }).shown === true);
    }
  });

  const api: Commands = {
    identify(v) {
      visitor = { id: String(v.id), ts: Number(v.ts), sig: String(v.sig) };
      if (v.name) visitor.name = String(v.name);
      if (v.email) visitor.email = String(v.email);
      // A signed visitor replaces whoever the iframe had: their chats are theirs alone.
      if (frame) provide(true);
    },
    open() {
      if (!frame) {
        frame = document.createElement('iframe');
        frame.title = button.textContent || 'Chat';
        frame.src = pageUrl;
        frame.allow = 'clipboard-write';
        panel.appendChild(frame);
        // Identified before the chat was opened: the frame may hold an earlier, anonymous session.
        if (visitor) provide(true);
      }
      opened = true;
      panel.hidden = false;
      button.setAttribute('aria-expanded', 'true');
      frame.focus();
    },
    close() {
      if (!opened) return;
      opened = false;
      panel.hidden = true;
      button.setAttribute('aria-expanded', 'false');
      button.focus();
    },
  };

  button.addEventListener('click', () => (opened ? api.close() : api.open()));
  closer.addEventListener('click', () => api.close());
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') api.close();
  });

  // The launcher shows once the server confirms this site may show the chat (and says its look).
  fetch(`${base}/api/v1/embedded/${encodeURIComponent(id)}/launcher`, { credentials: 'omit' })
    .then(async (res) => {
      if (res.ok) return res.json() as Promise<SessionAnswer['virtualAccount']>;
      // The site owner's clue, in the console of the page they are setting up.
      const refused = (await res.json()) as { error?: { code?: string } };
      // biome-ignore lint/suspicious/noConsole: the only way to tell the site's developer
      console.warn(
        refused.error?.code === 'ORIGIN_NOT_ALLOWED'
          ? `Assistente: this site (${location.origin}) is not allowed for this embed; add it to the embed's allowed sites`
          : `Assistente: embed ${id} not found, or paused`,
      );
    })
    .then((look) => {
      if (!look) return;
      button.textContent = look.displayName ?? 'Chat';
      panel.setAttribute('aria-label', button.textContent);
      if (look.color) host.style.setProperty('--c', look.color);
      button.hidden = false;
    })
    .catch(() => {});

  (document.body ?? document.documentElement).appendChild(host);

  // The page's calls made before this script loaded, in order, once the launcher is in place.
  const queued = w.Assistente?.q ?? [];
  const run = (name?: unknown, ...args: unknown[]) => {
    if (typeof name === 'string' && Object.hasOwn(api, name)) {
      (api[name as keyof Commands] as (...a: unknown[]) => void)(...args);
    }
  };
  w.Assistente = Object.assign(run, api, { loaded: true as const });
  for (const call of Array.from(queued)) run(...Array.from(call));
  window.dispatchEvent(new Event('assistente:ready'));
})();
