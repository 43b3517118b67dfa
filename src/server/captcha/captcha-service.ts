import { createHash } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { nowSeconds } from '../clock.js';
import { clickPuzzleOf, createClickCaptcha, verifyClickAnswer, type ClickPuzzle } from './click-captcha.js';
import { parsedJson } from '../../contract/checks.js';

const CAPTCHA_TTL = 600;

interface ClickCaptchaChallenge {
  id: string;
  /** shape label keys in click order; the caller translates them */
  shapes: string[];
  base64: string;
  width: number;
  height: number;
}

function keyOf(id: string): string {
  return createHash('sha256').update(`click:${id}`).digest('hex').slice(0, 32);
}

/**
 * Click captchas kept in the `captcha` table (never in process memory, so any server process can check
 * them). The puzzle, i.e. the answer, never leaves the server; the image is a raster PNG.
 */
export class ClickCaptchaService {
  constructor(private readonly db: Db) {}

  async create(id: string): Promise<ClickCaptchaChallenge> {
    const { puzzle, png } = createClickCaptcha();
    const now = nowSeconds();
    const key = keyOf(id);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('captcha').where((eb) => eb.or([eb('key', '=', key), eb('expire_time', '<', now)])).execute();
      await trx.insertInto('captcha').values({ key, code: 'click', captcha: JSON.stringify(puzzle), create_time: now, expire_time: now + CAPTCHA_TTL }).execute();
    });
    return {
      id,
      shapes: puzzle.targets.map((target) => `captcha.shape.${target.shape}`),
      base64: `data:image/png;base64,${png.toString('base64')}`,
      width: puzzle.width,
      height: puzzle.height,
    };
  }

  /** The stored puzzle, for tests that answer the captcha the way a person would. */
  async puzzleOf(id: string): Promise<ClickPuzzle | undefined> {
    const row = await this.db.selectFrom('captcha').select(['captcha', 'expire_time']).where('key', '=', keyOf(id)).executeTakeFirst();
    if (!row || Number(row.expire_time) < nowSeconds()) return undefined;
    // A stored puzzle that is not one (not JSON, or not a puzzle's shape) is no puzzle: its answers are refused.
    return clickPuzzleOf(parsedJson(row.captcha));
  }

  /**
   * Check an answer. A right answer is kept when `consume` is false (the real action checks it again);
   * a wrong answer always discards the puzzle, so it cannot be guessed at repeatedly.
   */
  async check(id: unknown, info: unknown, consume: boolean): Promise<boolean> {
    if (typeof id !== 'string' || typeof info !== 'string' || id.length === 0 || id.length > 100) return false;
    const puzzle = await this.puzzleOf(id);
    if (!puzzle) return false;
    const ok = verifyClickAnswer(puzzle, info);
    if (!ok || consume) await this.db.deleteFrom('captcha').where('key', '=', keyOf(id)).execute();
    return ok;
  }
}
