// Runs one test tier's jest command and fails when it ran no test: jest exits 0 when a project of a multi-project
// config matches nothing, so the count is read from its JSON report, not assumed from the exit code.
// Usage: node scripts/jest-tier.mjs <tier> <command> [args...]   (the command is jest, or npm running jest)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a jest JSON report says of a tier: its counts and, when it must fail, why. */
export function judgeReport(report, exitCode) {
  const passed = Number(report?.numPassedTests ?? 0);
  const failed = Number(report?.numFailedTests ?? 0) + Number(report?.numRuntimeErrorTestSuites ?? 0);
  const total = Number(report?.numTotalTests ?? 0);
  let problem = null;
  if (!report) problem = 'jest wrote no report';
  else if (total === 0 || passed === 0) problem = 'it ran no test';
  else if (failed > 0 || report.success === false) problem = `${failed} failed`;
  else if (exitCode !== 0) problem = `jest exited with ${exitCode}`;
  return { passed, failed, total, problem };
}

function main() {
  const [tier, command, ...args] = process.argv.slice(2);
  if (!tier || !command) {
    console.error('Usage: node scripts/jest-tier.mjs <tier> <command> [args...]');
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'jest-tier-'));
  const output = join(dir, 'report.json');
  // npm passes what follows `--` to the script's jest.
  const extra = ['--json', `--outputFile=${output}`];
  const full = command === 'npm' ? [...args, '--', ...extra] : [...args, ...extra];
  const run = spawnSync(command === 'jest' ? 'npx' : command, command === 'jest' ? ['jest', ...full] : full, {
    stdio: 'inherit',
  });
  let report = null;
  try {
    report = JSON.parse(readFileSync(output, 'utf8'));
  } catch {
    /* judged below */
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const verdict = judgeReport(report, run.status ?? 1);
  console.log(`${tier}: ${verdict.passed} passed, ${verdict.failed} failed`);
  if (verdict.problem) {
    console.error(`The ${tier} tier fails: ${verdict.problem}.`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) main();
