import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, loginAs, newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * The built client under its Content-Security-Policy: every page of both areas and the survey pages
 * load and work without one `securitypolicyviolation`, and the HTML carries the security headers.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

describe('security headers', () => {
  it('the HTML carries a strict CSP and the other headers', async () => {
    const response = await rig.server.raw('/chidaoadminstator/login');
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    // The forms check input with plain code: no script may be built from text.
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain("'unsafe-hashes'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('no page of the back office, the member area or the survey pages violates it', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
      });
      const violations: string[] = [];
      const collect = async () => violations.push(...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)));
      await loginAs(page, rig.server);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await collect();
      // Lists and forms (forms check their input in the browser against the schema).
      for (const path of ['/survey/survey', '/survey/survey/create', '/survey/participation', '/auth/admin', '/auth/admin/create', '/routine/config']) {
        await page.goto(url(rig.server, `${ADMIN_BASE}${path}`));
        // `main` by element: behind an open form dialog it is hidden from the accessibility tree.
        await page.locator('main').waitFor();
        await page.waitForLoadState('networkidle');
        await collect();
      }
      // The schema checks run under the policy: an empty form says what is missing before anything is sent.
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && /auth\.Admin\/add/.test(request.url())) sent.push(request.url());
      });
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/admin/create`));
      await page.getByRole('button', { name: '保存' }).click();
      await page.getByText(/不能为空/).first().waitFor();
      expect(sent).toEqual([]);
      await collect();
      for (const path of ['/user/login', '/success?rid=unknown', '/tracking', '/quicktask', '/404']) {
        await page.goto(url(rig.server, path));
        await page.waitForLoadState('networkidle');
        await collect();
      }
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
