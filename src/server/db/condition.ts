import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are declared by schemas at run time
export type Eb = ExpressionBuilder<any, any>;

/** A row filter in SQL, built on the query it narrows (a resource's scope, a list's search). */
export type Condition = (eb: Eb) => Expression<SqlBool>;
