// The tier check of scripts/test-all.sh: a tier that ran no test, or failed, fails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeReport } from './jest-tier.mjs';

const report = (passed, failed, extra = {}) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numTotalTests: passed + failed,
  numRuntimeErrorTestSuites: 0,
  success: failed === 0,
  ...extra,
});

test('a tier whose tests all passed is fine', () => {
  assert.deepEqual(judgeReport(report(12, 0), 0), { passed: 12, failed: 0, total: 12, problem: null });
});

test('a tier that ran no test fails even when jest exited 0', () => {
  assert.equal(judgeReport(report(0, 0), 0).problem, 'it ran no test');
});

test('a tier without a report fails', () => {
  assert.equal(judgeReport(null, 0).problem, 'jest wrote no report');
});

test('failed tests, a suite that did not run, or a non-zero exit fail the tier', () => {
  assert.equal(judgeReport(report(3, 1), 1).problem, '1 failed');
  assert.equal(
    judgeReport(report(3, 0, { numRuntimeErrorTestSuites: 1, success: false }), 1).problem,
    '1 failed',
  );
  assert.equal(judgeReport(report(3, 0), 1).problem, 'jest exited with 1');
});
