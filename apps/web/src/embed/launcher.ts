// The launcher's look: its button and the panel the chat opens in. embed.js builds its shadow root
// from these (bundled into it, vite.config.ts `embedScript`), and the Embeds tab's preview shows the
// same, so the preview cannot drift from what visitors see. No imports: embed.js must stay alone.

/** The launcher's styles; `--c` is the embed's colour. */
export const LAUNCHER_CSS = `:host{all:initial}
.b{position:fixed;right:20px;bottom:20px;z-index:2147483646;display:flex;align-items:center;gap:8px;
border:0;border-radius:28px;padding:14px 20px;color:#fff;background:var(--c,#1565c0);
font:600 15px/1.2 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;cursor:pointer;
box-shadow:0 4px 16px rgba(0,0,0,.25)}
.b:focus-visible{outline:3px solid #000;outline-offset:3px}
.b[hidden],.p[hidden]{display:none}
.p{position:fixed;right:20px;bottom:84px;z-index:2147483647;width:400px;height:min(640px,calc(100vh - 104px));
border-radius:12px;overflow:hidden;background:#fff;box-shadow:0 8px 32px rgba(0,0,0,.3);display:flex;flex-direction:column}
.h{display:flex;justify-content:flex-end;background:var(--c,#1565c0)}
.f .h{display:none}
.x{border:0;background:transparent;color:#fff;font:24px/1 system-ui,sans-serif;padding:6px 12px;cursor:pointer}
.x:focus-visible{outline:2px solid #fff;outline-offset:-4px}
iframe{flex:1;border:0;width:100%}
@media (max-width:600px){.p{inset:0;width:auto;height:auto;border-radius:0}}`;

/**
 * The launcher's nodes: the button (`.b`), and the panel (`.p`) with its close bar (`.h`, `.x`).
 * The panel takes `.f` while the chat page shows its own bar, which then holds the close control:
 * one bar and one close, not two (the close bar stays for a page that failed or was refused).
 */
export const LAUNCHER_HTML = `<button class="b" type="button" aria-haspopup="dialog" hidden></button>
<div class="p" role="dialog" hidden><div class="h"><button class="x" type="button">×</button></div></div>`;
