import type { AppContext } from '../../app-context.js';
import { centsToYuan } from '../../db/values.js';

/** One survey wall on the dashboard: its transactions of the period by their state now, and what stays credited. */
interface WallFigures {
  id: number;
  name: string;
  /** transactions credited and not reversed */
  credited: number;
  reversed: number;
  refused: number;
  /** yuan credited by the transactions still credited */
  money: string;
  /** points credited by the transactions still credited */
  score: number;
}

/**
 * Every wall provider's figures for the transactions received since `since` (Unix seconds): one read of
 * `survey_wall_transaction` grouped by provider, state and unit (the `create_time` index bounds it). Test
 * traffic is left out. Walls without transactions are listed with zeros, so each wall has its line.
 */
export async function wallFigures(app: AppContext, since: number): Promise<WallFigures[]> {
  const walls = await app.db.selectFrom('survey_provider').select(['id', 'name']).where('kind', '=', 'wall').orderBy('id', 'asc').execute();
  if (walls.length === 0) return [];
  const groups = await app.db
    .selectFrom('survey_wall_transaction')
    .select(['provider_id', 'state', (eb) => eb.fn.countAll<number | string>().as('total'), (eb) => eb.fn.sum<number | string | null>('money').as('money'), (eb) => eb.fn.sum<number | string | null>('score').as('score')])
    .where('create_time', '>=', since)
    .where('state', '<>', 'test')
    .groupBy(['provider_id', 'state'])
    .execute();
  const figures = new Map(walls.map((wall) => [Number(wall.id), { id: Number(wall.id), name: wall.name, credited: 0, reversed: 0, refused: 0, cents: 0, score: 0 }]));
  for (const group of groups) {
    const wall = figures.get(Number(group.provider_id));
    if (!wall) continue;
    const total = Number(group.total);
    if (group.state === 'credited') Object.assign(wall, { credited: total, cents: Number(group.money ?? 0), score: Number(group.score ?? 0) });
    else if (group.state === 'reversed') wall.reversed = total;
    else if (group.state === 'refused') wall.refused = total;
  }
  return [...figures.values()].map(({ cents, ...wall }) => ({ ...wall, money: centsToYuan(cents) }));
}
