import type { Santito } from '@assistente/contracts';
import { type CSSProperties, useLayoutEffect, useRef } from 'react';
import { LAUNCHER_CSS, LAUNCHER_HTML } from '../../embed/launcher.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { ChatPreview } from '../chats/index.ts';
import classes from './EmbeddedChat.module.css';
import stage from './EmbeddedPreview.module.css';
import { EmbeddedBar } from './internal/EmbeddedBar.tsx';

/**
 * Where the launcher's button and panel sit in the preview: inside its frame rather than fixed to
 * the window, and a visitor's desktop layout at any width. Everything else is embed.js's own look.
 */
const STAGE_CSS = `.b{position:absolute;right:16px;bottom:16px}
.p{position:absolute;inset:16px 16px 80px 16px;width:auto;height:auto;border-radius:12px}
slot{display:contents}`;

const HEX = /^#[0-9a-fA-F]{6}$/;

export interface EmbeddedPreviewProps {
  displayName: string;
  /** `#rrggbb`; anything else (a colour being typed) shows the default colour. */
  color: string;
  welcome: string;
  santito: Pick<Santito, 'name' | 'avatar' | 'starters'> | null;
  allowAttachments: boolean;
}

/**
 * An embed as a visitor sees it, open: the launcher button (embed.js's markup and styles, in a
 * shadow root as on the site) and its panel holding a new embedded chat (the embedded page's bar
 * and ChatView's parts). Nothing in it is live or can be focused: it only shows.
 */
export function EmbeddedPreview({
  displayName,
  color,
  welcome,
  santito,
  allowAttachments,
}: EmbeddedPreviewProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const name = displayName.trim() || t('embeds.preview.unnamed');
  const look = { '--c': HEX.test(color) ? color : undefined } as CSSProperties;

  useLayoutEffect(() => {
    const el = host.current;
    if (!el || el.shadowRoot) return;
    const root = el.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${LAUNCHER_CSS}\n${STAGE_CSS}</style>${LAUNCHER_HTML}`;
    const panel = root.querySelector<HTMLElement>('.p');
    // A chat page showing: its bar holds the close control, as embed.js is told by the page.
    panel?.classList.add('f');
    // The chat's page comes in through a slot: it stays in the document, under the app's styles.
    panel?.append(document.createElement('slot'));
    for (const el of root.querySelectorAll<HTMLElement>('[hidden]')) el.hidden = false;
  }, []);

  useLayoutEffect(() => {
    const button = host.current?.shadowRoot?.querySelector('.b');
    if (button) button.textContent = name;
  }, [name]);

  return (
    <div className={stage.stage} inert data-testid="embed-preview">
      <div ref={host} style={look} data-testid="embed-preview-launcher" data-name={name}>
        <div
          className={`${classes.page} ${stage.page}`}
          style={{ '--embed-color': HEX.test(color) ? color : undefined } as CSSProperties}
        >
          <EmbeddedBar
            name={name}
            showHistory={false}
            onHistory={() => {}}
            newChatTo="."
            onNewChat={() => {}}
            onClose={() => {}}
          />
          <div className={classes.content}>
            <ChatPreview
              santito={santito}
              displayName={name}
              welcome={welcome}
              allowAttachments={allowAttachments}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
