/**
 * The permission node a rule name stands for, the one form in which names are compared: lower case, so
 * `user/moneyLog/add` and `USER/MONEYLOG/ADD` are one node. Names are stored as written (the client routes
 * by menu names), and no two rules of a table share a node (`resources/permission-sets.ts`, and the
 * database's index of `lower(name)`, `db/seed.ts`). Names are printable ASCII (the schemas' `pattern`),
 * where this lower case and the databases' `lower` agree.
 */
export function permissionNode(name: string): string {
  return name.toLowerCase();
}
