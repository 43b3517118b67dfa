import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASE, adminPath, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * Two admins edit one row in two browsers: the second save does not silently overwrite the
 * first; the form says so and offers to reload or overwrite.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

const subjectOf = async () =>
  ((await rig.server.server.app.db.selectFrom('mail_template').select('subject').where('id', '=', 1).executeTakeFirstOrThrow()) as { subject: string }).subject;

describe('stale writes', () => {
  it('refuses the second of two saves of one row and lets that admin overwrite knowingly', async () => {
    const first = await newPage(rig.browser);
    const second = await newPage(rig.browser);
    try {
      const subjects = [];
      for (const { page } of [first, second]) {
        await loginAs(page, rig.server);
        await page.goto(url(rig.server, `${ADMIN_BASE}/routine/mailTemplate/1`));
        const subject = page.getByRole('dialog', { name: '编辑邮件模板' }).getByRole('textbox', { name: '主题', exact: true });
        await poll(() => subject.inputValue()).not.toBe('');
        subjects.push(subject);
      }
      await subjects[0].fill('Saved first');
      await first.page.getByRole('dialog', { name: '编辑邮件模板' }).getByRole('button', { name: '保存' }).click();
      await first.page.waitForURL(adminPath('/routine/mailTemplate'));
      expect(await subjectOf()).toBe('Saved first');

      await subjects[1].fill('Saved second');
      await second.page.getByRole('dialog', { name: '编辑邮件模板' }).getByRole('button', { name: '保存' }).click();
      const dialog = second.page.getByRole('dialog', { name: '记录已被他人修改' });
      await dialog.waitFor();
      expect(await subjectOf()).toBe('Saved first');

      await dialog.getByRole('button', { name: '覆盖保存' }).click();
      await second.page.waitForURL(adminPath('/routine/mailTemplate'));
      expect(await subjectOf()).toBe('Saved second');
      expect([...first.errors, ...second.errors]).toEqual([]);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});
