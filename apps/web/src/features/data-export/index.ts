// The feature's public surface: code outside features/data-export imports only from here. Only
// re-exports (the build treats this file as free of side effects).
export { ExportDataDialog, type ExportSubject } from './components/ExportDataDialog.tsx';
export { MyDataTab } from './components/MyDataTab.tsx';
