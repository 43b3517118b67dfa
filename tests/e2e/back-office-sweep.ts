import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { expectNoViolations, openInApp, settled, sweep, useScheme, type Finding, type Language, type Scheme } from './axe.js';
import { ADMIN_BASE, adminPath, fillLogin, menuPages, newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * The back office's accessibility sweep, shared by its test files (one language and scheme each, so each
 * file stays short): every page the admin's menus open, as the server reports them (a new schema is swept
 * too), and on each schema list its add form, its first row's edit form and its details view.
 */

let rig: E2eRig;
/** The paths (inside the back office) of every page the super administrator's menus open. */
let pages: string[] = [];

/** Starts the file's server and browser (with one member to list), and reads the admin's menus. */
export function backOfficeRig(): void {
  beforeAll(async () => {
    rig = await startRig();
    const token = (await rig.server.loginAdmin()).token;
    // One member, so the member lists have a row to edit and show.
    await rig.server.admin('user.User/add', {
      token,
      body: {
        username: 'reader',
        nickname: 'Reader',
        group_id: 1,
        password: 'Member_pass1',
      },
    });
    pages = await menuPages(rig.server, token);
  });
  afterAll(async () => {
    await rig?.close();
  });
}

/** The generated lists' controls that open a form or the details: react-admin's create link, a row's edit link, a row's details button. */
const ACTIONS = {
  create: (page: Page) => page.locator('main a[href$="/create"]').first(),
  edit: (page: Page, language: Language) =>
    page
      .getByRole('main')
      .getByRole('link', {
        name: language === 'en' ? 'Edit' : '编辑',
        exact: true,
      })
      .first(),
  details: (page: Page, language: Language) =>
    page
      .getByRole('main')
      .getByRole('button', {
        name: language === 'en' ? 'Details' : '详情',
        exact: true,
      })
      .first(),
};

/** Opens what a control opens (a dialog over the list, or a page of its own), sweeps it, and closes a dialog again. */
async function sweepOpened(page: Page, opener: Locator, where: string): Promise<Finding[]> {
  const before = page.url();
  await opener.click();
  const dialog = page.getByRole('dialog').first();
  await Promise.race([dialog.waitFor(), page.waitForURL((next) => next.href !== before)]).catch((error: Error) => {
    throw new Error(`${where}: neither a dialog nor a page opened (${error.message})`);
  });
  await settled(page);
  const inDialog = await dialog.isVisible();
  const found = await sweep(page, where, inDialog ? '[role="dialog"]' : 'main');
  if (inDialog) {
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
  return found;
}

/** Sweeps the admin login and every back-office page in one language and scheme; fails on any violation. */
export async function sweepBackOffice(language: Language, scheme: Scheme): Promise<void> {
  const { context, page } = await newPage(rig.browser, { language });
  const findings: Finding[] = [];
  const tag = `(${language}, ${scheme})`;
  try {
    await useScheme(context, page, scheme);
    await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
    await page
      .getByRole('button', {
        name: language === 'en' ? 'Login' : '登录',
        exact: true,
      })
      .waitFor();
    findings.push(...(await sweep(page, `admin login ${tag}`)));
    await fillLogin(page, { language });
    await page.waitForURL(adminPath('/dashboard'));
    for (const path of pages) {
      await openInApp(page, `${ADMIN_BASE}${path}`);
      // The shell around the page (header, menu, tabs) is swept once, with the first page.
      findings.push(...(await sweep(page, `${path} ${tag}`, path === pages[0] ? undefined : 'main')));
      if (process.env.E2E_DEBUG) console.log('swept', path, Math.round(performance.now()));
      for (const [action, find] of Object.entries(ACTIONS)) {
        const opener = find(page, language);
        if ((await opener.count()) === 0 || !(await opener.isVisible())) continue;
        findings.push(...(await sweepOpened(page, opener, `${path} ${action} ${tag}`)));
        // An edit or details route closes back onto the list.
        if (new URL(page.url()).pathname !== `${ADMIN_BASE}${path}`) await openInApp(page, `${ADMIN_BASE}${path}`);
      }
    }
  } finally {
    await context.close();
  }
  expectNoViolations(findings);
}
