#!/usr/bin/env node
// `npm test`: lint, typecheck, unit + integration (vitest), build, e2e (Playwright in Debian Chromium).
// Ends with one line `N passed, N failed` counting every test and every check.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
/** Tests that need a service this machine lacks (Redis without REDIS_URL). In CI every one must run. */
let skipped = 0;
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`  ${label} finished in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${r.status})`);
  return r.status === 0;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

/** "[project] file › title" of every Playwright test that did not simply pass. */
function notPassed(report) {
  const names = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        if (t.status !== 'expected')
          names.push(`[${t.projectName}] ${file ?? suite.file} › ${spec.title} (${t.status})`);
    for (const child of suite.suites ?? []) walk(child, file ?? suite.file);
  };
  for (const suite of report.suites) walk(suite);
  return names;
}

/** One Playwright run, counted from its JSON report. */
function playwright(label, reportName, args) {
  const report = path.join(out, reportName);
  const ok = run(label, 'npx', ['playwright', 'test', ...args], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    noteSlowJourneys(label, json);
    const s = json.stats;
    passed += s.expected;
    // A skipped or flaky e2e test counts as failed: a test that cannot fail is a defect.
    failed += s.unexpected + s.skipped + s.flaky;
    if (s.unexpected + s.skipped + s.flaky > 0)
      failures.push(
        `${label}: ${s.unexpected} failed, ${s.flaky} flaky, ${s.skipped} skipped (${notPassed(json).join('; ')})`,
      );
    if (!ok && s.unexpected === 0) {
      failed++;
      failures.push(`${label}: playwright (run error)`);
    }
  } else {
    failed++;
    failures.push(`${label}: playwright produced no report`);
  }
}

/** The slowest vitest files and Playwright journeys, printed at the end: where CI time goes. */
const slowest = [];

function noteSlowVitest(report) {
  const files = report.testResults
    .map((f) => ({ name: path.relative(root, f.name), ms: (f.endTime ?? 0) - (f.startTime ?? 0) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  slowest.push(['vitest files', files]);
}

function noteSlowJourneys(label, report) {
  const tests = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        tests.push({
          name: `[${t.projectName}] ${file ?? suite.file} › ${spec.title}`,
          ms: t.results.reduce((sum, r) => sum + (r.duration ?? 0), 0),
        });
    for (const child of suite.suites ?? []) walk(child, file ?? suite.file);
  };
  for (const suite of report.suites) walk(suite);
  slowest.push([label, tests.sort((a, b) => b.ms - a.ms).slice(0, 10)]);
}

const only = process.argv[2];

if (!only || only === 'static') {
  check('lint', 'npx', ['biome', 'check', '.']);
  check('typecheck', 'npm', ['run', 'typecheck']);
}

if (!only || only === 'unit') {
  const report = path.join(out, 'vitest.json');
  const ok = run('unit + integration', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    noteSlowVitest(r);
    passed += r.numPassedTests;
    failed += r.numFailedTests + (r.numTodoTests ?? 0);
    // CI configures every service, so a test it skips could never fail: a defect. Elsewhere a
    // skipped test names a service this machine lacks (e.g. REDIS_URL unset) and is reported as such.
    if (process.env.CI) failed += r.numPendingTests ?? 0;
    else skipped += r.numPendingTests ?? 0;
    if (process.env.CI && r.numPendingTests > 0) failures.push(`vitest: ${r.numPendingTests} skipped`);
    if (!ok && r.numFailedTests === 0) {
      failed++;
      failures.push('vitest (suite error)');
    }
    if (r.numFailedTests > 0) {
      // Named in the last lines: a CI log is often kept only by its tail.
      const names = r.testResults.flatMap((file) =>
        file.assertionResults
          .filter((t) => t.status === 'failed')
          .map((t) => `${path.relative(root, file.name)} › ${t.fullName}`),
      );
      failures.push(`vitest: ${r.numFailedTests} failed (${names.join('; ')})`);
    }
  } else {
    failed++;
    failures.push('vitest produced no report');
  }
}

if (!only || only === 'e2e') {
  if (run('build web', 'npm', ['run', 'build'])) {
    playwright('e2e', 'playwright.json', []);
    // The editor extension in a real VS Code (code-server, installed into a cache when missing).
    playwright('e2e (VS Code extension)', 'playwright-vscode.json', ['-c', 'playwright.vscode.config.ts']);
  } else {
    failed++;
    failures.push('build web');
  }
}

for (const [label, items] of slowest) {
  console.log(`\nSlowest ${label}:`);
  for (const { name, ms } of items) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
}
if (failures.length) console.log(`\nFailures: ${failures.join('; ')}`);
if (skipped) console.log(`\n${skipped} tests skipped: they need REDIS_URL (CI sets it).`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
