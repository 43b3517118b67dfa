import type { Translate } from '../../i18n/translate.js';

/**
 * A reward or credit as a member reads it (messages `common/survey`): the yuan and the points it has,
 * "¥1.50", "1 point", "¥1.50 + 20 points", leaving out a part that is nothing; undefined when both are
 * (the caller says "No reward" or "-", never "¥0.00 / 0 points").
 */
export function rewardText(t: Translate, money: string, score: number): string | undefined {
  const yuan = Number(money) !== 0 ? t('survey.reward.money', { money }) : undefined;
  const points = score !== 0 ? t('survey.reward.points', { smart_count: score }) : undefined;
  if (yuan && points) return t('survey.reward.both', { money: yuan, points });
  return yuan ?? points;
}

/** A survey's or quick task's reward on its card: "Reward ¥1.50 + 20 points", or "No reward". */
export function taskRewardText(t: Translate, money: string, score: number): string {
  const reward = rewardText(t, money, score);
  return reward ? t('survey.tasks.reward', { amount: reward }) : t('survey.tasks.noReward');
}
