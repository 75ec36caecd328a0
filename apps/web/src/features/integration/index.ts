// The feature's public surface: code outside features/integration imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as IntegrationPage } from './IntegrationPage.tsx';
