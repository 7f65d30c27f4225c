import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once and injected into each page that is checked. */
let source: string | null = null;
function axeSource(): string {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** Violations at these impacts fail a test; minor and moderate ones are left to review. */
const FAILING = new Set(['serious', 'critical']);

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) over the page as it is now and answers the serious and critical
 * violations, each as one readable line per element.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  // Evaluated through the debugging protocol: the app's Content-Security-Policy refuses inline scripts.
  if (!loaded) await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact !== null && FAILING.has(v.impact))
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.impact} ${v.id} (${v.help}) at ${JSON.stringify(n.target)}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`,
      ),
    );
}

/** Fails with the list of violations when the page has a serious or critical accessibility violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Mantine's transitions (menus, modals, notifications) must settle, or axe sees half-faded colours.
  await page.waitForTimeout(300);
  const found = await seriousViolations(page);
  if (found.length > 0) {
    throw new Error(
      `${screen}: ${found.length} serious or critical accessibility violation(s)\n${found.join('\n')}`,
    );
  }
}
