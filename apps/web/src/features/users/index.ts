// The feature's public surface: code outside features/users imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

export { useUserList } from './hooks/useUsers.ts';
// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as UsersPage } from './UsersPage.tsx';
