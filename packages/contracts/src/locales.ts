// Kept free of zod: the web app's first screen needs these without the schema library.
export const Locales = ['pt-BR', 'en', 'es'] as const;
export type Locale = (typeof Locales)[number];
export const DefaultLocale: Locale = 'pt-BR';
