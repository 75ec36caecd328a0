/**
 * The parts a language's texts are split into at build time (the source `locales/*.json` stay
 * whole). `shell` holds the top-level sections the app shell and the auth pages show, so the login
 * page downloads only those; `chat` the sections of a chat screen, so an embedded chat (another
 * site's iframe) downloads only those beside the shell's; `admin` those of the administration
 * pages (users, domains, departments, settings, integration), loaded with those pages; `app` holds
 * the rest and loads with the signed-in layouts.
 *
 * Add a section to SHELL_SECTIONS when the shell, the error page, the popup or an auth page starts
 * using it, to CHAT_SECTIONS when the embedded chat screen does, to ADMIN_SECTIONS when only the
 * administration pages do: a key from a part not loaded yet still shows, but only after its part
 * loads (the key flashes).
 */
export const LOCALE_PARTS = ['shell', 'chat', 'app', 'admin'] as const;
export type LocalePart = (typeof LOCALE_PARTS)[number];

export const SHELL_SECTIONS: readonly string[] = [
  'app',
  'locale',
  'nav',
  'error_page',
  'popup',
  'http',
  'auth_layout',
  'pages_login',
  'pages_reset_password',
  'auth',
  // The page ending an MCP server's sign-in, in a popup that loads nothing else.
  'mcp_connected',
];

// `shares`: the chat header's "Share" and the shared chat's page, which loads the chat part only.
export const CHAT_SECTIONS: readonly string[] = ['chats', 'embeddedChat', 'common', 'errors', 'shares'];

export const ADMIN_SECTIONS: readonly string[] = [
  'users',
  'domains',
  'departments',
  'settings',
  'audit',
  'providers',
  'sso',
  'embeds',
  'apiKeys',
  'usage',
  // Settings' import, data export and jobs tabs (the export dialog also on users and departments):
  // pages that load this part, so /chats does not download them (issue 30).
  'chatImport',
  'dataExport',
  'jobs',
];

/** The part a top-level section of a locale file belongs to. */
function partOf(section: string): LocalePart {
  if (SHELL_SECTIONS.includes(section)) return 'shell';
  if (CHAT_SECTIONS.includes(section)) return 'chat';
  return ADMIN_SECTIONS.includes(section) ? 'admin' : 'app';
}

/** The sections of a locale file that belong to a part. */
export function pickPart(messages: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  return Object.fromEntries(Object.entries(messages).filter(([section]) => partOf(section) === part));
}
