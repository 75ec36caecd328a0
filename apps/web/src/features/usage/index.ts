// The feature's public surface: code outside features/usage imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

export { BudgetBanner } from './components/BudgetBanner.tsx';
export { MyUsage } from './components/MyUsage.tsx';
export { MY_USAGE_KEY } from './hooks/useUsage.ts';
// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as UsagePage } from './UsagePage.tsx';
