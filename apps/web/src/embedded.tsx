import '@assistente/contracts/jitless';
import './app/styles.ts';
import { StrictMode } from 'react';
import { bootPage } from './app/bootPage.tsx';
import { EmbeddedApp } from './app/embedded/EmbeddedApp.tsx';
import { initVisitorServices } from './features/auth/index.ts';
import { setLanguage } from './lib/i18n/index.ts';
import { rememberLocale, resolveBrowserLocale } from './lib/i18n/locale.ts';
import { ErrorPage } from './ui/ErrorPage.tsx';
import { setUi } from './ui/uiStore.ts';

// The embedded chat's entry (embedded.html, docs/ARCHITECTURE.md#embedded-chat): a chat inside another site's iframe, for
// a visitor who never signs in. The server serves this page for /embedded/{id}/chats[/{chatId}];
// it carries what a visitor needs before they can send and nothing of the signed-in app.

const container = document.getElementById('root');
if (container) {
  const { locale, prefix } = resolveBrowserLocale(window.location.pathname);
  if (prefix) rememberLocale(prefix);
  void bootPage(container, {
    // The chat's texts come with the shell's: the page shows nothing else before the visitor sends.
    language: setLanguage(locale, ['chat']),
    errorPage: <ErrorPage statusCode={500} renderBack={() => null} />,
    render: (config, updateAvailable) => {
      initVisitorServices(config);
      // No account session on this page: nothing of it to wait for.
      setUi({ loadingAuthPlugin: false });
      return (
        <StrictMode>
          <EmbeddedApp updateAvailable={updateAvailable} />
        </StrictMode>
      );
    },
  });
}
