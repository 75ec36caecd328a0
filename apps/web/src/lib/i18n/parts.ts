/**
 * The parts a language's texts are split into at build time (the source `locales/*.json` stay
 * whole). `shell` holds the top-level sections the app shell and the auth pages show, so the login
 * page downloads only those; `app` holds the rest and loads with the signed-in layouts.
 *
 * Add a section to SHELL_SECTIONS when the shell, the error page, the popup or an auth page starts
 * using it: a key from `app` still shows there, but only after its part loads (the key flashes).
 */
export const LOCALE_PARTS = ['shell', 'app'] as const;
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
];

/** The sections of a locale file that belong to a part. */
export function pickPart(messages: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(messages).filter(([section]) => SHELL_SECTIONS.includes(section) === (part === 'shell')),
  );
}
