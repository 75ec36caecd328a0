// The feature's public surface: code outside features/mcp imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { McpServersTab } from './components/McpServersTab.tsx';
export { MyToolsTab } from './components/MyToolsTab.tsx';
export { ToolPicker } from './components/ToolPicker.tsx';
// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as McpConnectedPage } from './McpConnectedPage.tsx';
