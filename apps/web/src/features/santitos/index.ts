// The feature's public surface: code outside features/santitos imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { SantitoAvatar } from './components/SantitoAvatar.tsx';
export { useSantito, useSantitos } from './hooks/useSantitos.ts';

// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as SantitosPage } from './SantitosPage.tsx';
