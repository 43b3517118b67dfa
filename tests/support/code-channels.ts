import { ClickCaptchaService } from '../../src/server/captcha/captcha-service.js';
import { sinkConfig, type MailSink } from './mail-sink.js';
import type { TestServer } from './test-server.js';

/**
 * What a member and an administrator do before codes can go out: a click captcha solved as a person clicks
 * it, and a test message that proves a channel (docs/wire-contract.md#code-channels), through the settings
 * screen's own actions.
 */

let solved = 0;

/** A solved click captcha for `server`, each with an id of its own. */
export async function solvedCaptcha(server: TestServer): Promise<{ captchaId: string; captchaInfo: string }> {
  const captchaId = `5d1e7c00-0d3f-4a6b-9c8d-${String(++solved).padStart(12, '0')}`;
  const asked = await server.api('common/clickCaptcha', { query: { id: captchaId } });
  if (asked.code !== 1) throw new Error(`no click captcha: ${asked.msg}`);
  const puzzle = await new ClickCaptchaService(server.server.app.db).puzzleOf(captchaId);
  if (!puzzle) throw new Error('no puzzle');
  const captchaInfo = `${puzzle.targets.map((target) => `${target.x + target.width / 2},${target.y + target.height / 2}`).join('-')};350;200`;
  return { captchaId, captchaInfo };
}

/**
 * Sends a test mail through the sink's settings and saves them (unless `save` is false), so mail codes are
 * offered once they are the saved ones.
 */
export async function proveMail(server: TestServer, adminToken: string, sink: Pick<MailSink, 'port'>, { save = true }: { save?: boolean } = {}): Promise<void> {
  const settings = sinkConfig(sink);
  const tested = await server.admin('routine.Config/sendTestMail', { token: adminToken, method: 'POST', body: { ...settings, testMail: 'owner@example.org' } });
  if (tested.code !== 1) throw new Error(`test mail failed: ${tested.msg}`);
  if (!save) return;
  const saved = await server.admin('routine.Config/edit', { token: adminToken, method: 'POST', body: settings });
  if (saved.code !== 1) throw new Error(`mail settings not saved: ${saved.msg}`);
}

/** Sends a test SMS through the server's SMS driver, so mobile codes are offered. */
export async function proveSms(server: TestServer, adminToken: string, mobile = '13900000000'): Promise<void> {
  const tested = await server.admin('routine.Config/sendTestSms', { token: adminToken, method: 'POST', body: { mobile } });
  if (tested.code !== 1) throw new Error(`test SMS failed: ${tested.msg}`);
}
