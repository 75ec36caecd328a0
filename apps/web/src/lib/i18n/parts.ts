/**
 * The parts a language's texts are split into at build time (the source `locales/*.json` stay
 * whole). `shell` holds the top-level sections the app shell shows and `auth` those of the auth
 * pages, so the login page downloads only those; `chat` the sections of a chat screen, so an
 * embedded chat (another site's iframe) downloads only those beside the shell's; `admin` those of
 * the administration pages (users, domains, departments, settings, integration), loaded with those
 * pages; `app` holds the rest and loads with the signed-in layouts.
 *
 * Add a section to SHELL_SECTIONS when the shell, the error page or the popup starts using it, to
 * AUTH_SECTIONS when only the auth pages (or the settings' password tab) do, to CHAT_SECTIONS when
 * the embedded chat screen does (or one of its subsections to SUBSECTION_PARTS, when the screen
 * shows only that of it), to ADMIN_SECTIONS when only the administration pages do: a key from a
 * part not loaded yet still shows, but only after its part loads (the key flashes).
 */
export const LOCALE_PARTS = ['shell', 'auth', 'chat', 'app', 'admin'] as const;
export type LocalePart = (typeof LOCALE_PARTS)[number];

export const SHELL_SECTIONS: readonly string[] = [
  'app',
  'locale',
  'nav',
  'error_page',
  'popup',
  'http',
  // The page ending an MCP server's sign-in, in a popup that loads nothing else.
  'mcp_connected',
];

// The auth pages' own texts (and the settings' password tab, which shares them): the embedded
// chat, the share page and the signed-in screens that never show them do not download them.
export const AUTH_SECTIONS: readonly string[] = [
  'auth_layout',
  'pages_login',
  'pages_reset_password',
  'auth',
];

// `shares`: the chat header's "Share" and the shared chat's page, which loads the chat part only
// (the rest of it is in SUBSECTION_PARTS).
export const CHAT_SECTIONS: readonly string[] = ['chats', 'embeddedChat', 'common', 'errors', 'shares'];

/**
 * Subsections that load with another part than their section's. Into `chat`, what a chat screen
 * shows of other sections (its title, citations, the memory badge, PII and provider failures, the
 * prompt picker), so an embedded chat needs no part beyond the shell's and the chat's (issue 30);
 * out of it, the share dialog's and the settings' texts of `shares`, which only signed-in screens
 * (with the `app` part) show.
 */
export const SUBSECTION_PARTS: Readonly<Record<string, LocalePart>> = {
  'pages.chat': 'chat',
  'pages.chats': 'chat',
  'pages.home': 'chat',
  'knowledge.citations': 'chat',
  'memory.badge': 'chat',
  'pii.blocked': 'chat',
  'pii.kinds': 'chat',
  'retention.server': 'chat',
  'prompts.picker': 'chat',
  'prompts.scopes': 'chat',
  'providers.address': 'chat',
  'providers.failure': 'chat',
  'providers.kinds': 'chat',
  'shares.audience': 'app',
  'shares.dialog': 'app',
  'shares.list': 'app',
  'shares.settings': 'app',
  'shares.tab': 'app',
};

/** The sections some of whose subsections load with another part. */
export const SPLIT_SECTIONS: ReadonlySet<string> = new Set(
  Object.keys(SUBSECTION_PARTS).map((name) => name.slice(0, name.indexOf('.'))),
);

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
  if (AUTH_SECTIONS.includes(section)) return 'auth';
  if (CHAT_SECTIONS.includes(section)) return 'chat';
  return ADMIN_SECTIONS.includes(section) ? 'admin' : 'app';
}

/** The sections of a locale file that belong to a part, a split section with its part's subsections. */
export function pickPart(messages: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [section, value] of Object.entries(messages)) {
    if (!SPLIT_SECTIONS.has(section) || value === null || typeof value !== 'object') {
      if (partOf(section) === part) picked[section] = value;
      continue;
    }
    const keys = Object.entries(value).filter(
      ([key]) => (SUBSECTION_PARTS[`${section}.${key}`] ?? partOf(section)) === part,
    );
    if (keys.length > 0) picked[section] = Object.fromEntries(keys);
  }
  return picked;
}
