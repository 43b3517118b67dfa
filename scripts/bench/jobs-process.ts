/**
 * One server process for the exactly-once checks (`jobs-once.ts`, tests/api/jobs-exactly-once.test.ts): the
 * real start-up (migrations, pg-boss) on `DATABASE_URL` with one job, `slow-sweep`, that runs for
 * `SLEEP_MS` milliseconds every `JOB_SLOT_SECONDS` seconds. It prints `ready` once its jobs run, and stops
 * cleanly on SIGTERM; SIGKILL is the process killed mid-job.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const sleepMs = Number(process.env.SLEEP_MS ?? 1000);
const period = Number(process.env.JOB_SLOT_SECONDS ?? 60);

const server = await createServer(settingsFromEnv({ ADMIN_LOGIN_CAPTCHA: 'false', ...process.env }, projectRoot), {
  jobs: [
    {
      name: 'slow-sweep',
      title: { en: 'A sweep that takes its time', 'zh-cn': '耗时的清理' },
      everySeconds: period,
      // a run left by a killed process is taken as lost after two slots
      timeoutSeconds: Math.max(2, 2 * period),
      run: () => new Promise((done) => setTimeout(done, sleepMs)),
    },
  ],
});
console.log('ready');
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
