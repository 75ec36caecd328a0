// The feature's public surface: code outside features/jobs imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

export { JobsTab } from './components/JobsTab.tsx';
export { RunJobButton } from './components/RunJobButton.tsx';
export { RunSummary } from './components/RunSummary.tsx';
export { RUN_POLL_MS } from './hooks/useJobs.ts';
export { RETENTION_JOB } from './internal/words.ts';
