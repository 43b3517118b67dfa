import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { WAIT_MS } from './helpers.js';

/**
 * The accessibility sweep's shared steps: axe-core's WCAG 2.0 and 2.1 level A and AA rules on a page as
 * it is drawn, every critical or serious violation collected with the page it was found on, and a
 * failure message that names the rule, the elements and the page.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

export type Scheme = 'light' | 'dark';
export type Language = 'zh-cn' | 'en';

/**
 * Runs axe on the page now (or only on the part `scope` selects, when the rest was swept already) and
 * returns its critical and serious violations, labelled with `where`.
 */
export async function sweep(page: Page, where: string, scope?: string): Promise<Finding[]> {
  const started = performance.now();
  // Only the violations are collected: passes and incomplete checks would cost as long again to gather.
  // Label in name (WCAG 2.5.3) is an experimental rule, off unless asked for: a control's accessible name
  // must contain the text it shows.
  // Run in the page itself (axe's "legacy" mode), as one `axe.run` over the page and its same-origin
  // frames: the same rules and the same findings here, where no page shows another site's frame. The
  // default mode, made for cross-origin frames, opens a blank page to merge each frame's results and
  // loads axe into it again: more than half of each sweep's time (the 59 sweeps of one back-office file
  // took 87 s in axe that way, 39 s this way).
  const builder = new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } });
  if (scope) builder.include(scope);
  const result = await builder.analyze();
  if (process.env.E2E_DEBUG) console.log('axe', where, Math.round(performance.now() - started), 'ms');
  return result.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => ({
      where,
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => `${node.target.join(' ')}${node.any[0]?.message ? ` (${node.any[0].message})` : ''}`),
    }));
}

/** One line per violation and page: rule, impact, page, what it asks, and up to five elements. */
function describe(findings: readonly Finding[]): string {
  return findings
    .map((finding) => {
      const shown = finding.targets.slice(0, 5).map((target) => `      ${target}`).join('\n');
      const more = finding.targets.length > 5 ? `\n      …and ${finding.targets.length - 5} more` : '';
      return `  [${finding.impact}] ${finding.rule} on ${finding.where}: ${finding.help}\n${shown}${more}`;
    })
    .join('\n');
}

/** Fails on any collected violation; the message lists every one, so that one run shows everything to fix. */
export function expectNoViolations(findings: readonly Finding[]): void {
  expect(findings, `critical or serious WCAG violations:\n${describe(findings)}`).toEqual([]);
}

/** The back office, the member centre and its standalone pages draw dark when the stored layout says so. */
export async function useScheme(context: BrowserContext, page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await context.addInitScript((dark) => {
    const stored = JSON.parse(localStorage.getItem('storeConfig_v2') ?? '{}') as { layout?: Record<string, unknown> };
    localStorage.setItem('storeConfig_v2', JSON.stringify({ ...stored, layout: { ...stored.layout, isDark: dark } }));
  }, scheme === 'dark');
}

/**
 * Opens a path of the single-page app without reloading it, as a link inside it does, then waits until
 * the page's main region has drawn (no progress bar, no skeleton).
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settled(page);
}

/** Waits for the page to finish drawing: something in `main`, nothing loading, animations over. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const main = document.querySelector('main');
      if (!main || (main.textContent ?? '').trim() === '') return false;
      return !document.querySelector('[role="progressbar"], .MuiSkeleton-root, .RaLoading');
    },
    undefined,
    { timeout: WAIT_MS },
  );
  // Transitions (dialogs fading in, tabs sliding) take up to 225 ms in MUI.
  await page.waitForTimeout(300);
}
