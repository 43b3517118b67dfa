import { createHash, randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

/**
 * A BuildAdmin 2.1.2-shaped database on the test MariaDB/MySQL server (TEST_MYSQL_URL, default root
 * without a password on 127.0.0.1:3306), created under its own name for one suite and dropped afterwards.
 * The tables follow BuildAdmin's migrations (after its 2.0 renames and 2.0.6 `connection` columns); the rows
 * are made up here.
 */

export const MYSQL_ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** BuildAdmin's password hash: md5(md5(password) . salt). */
export function buildAdminHash(password: string, salt: string): string {
  return md5(md5(password) + salt);
}

const TABLES: Record<string, string> = {
  admin: `id int unsigned NOT NULL AUTO_INCREMENT, username varchar(20) NOT NULL DEFAULT '', nickname varchar(50) NOT NULL DEFAULT '', avatar varchar(255) NOT NULL DEFAULT '',
    email varchar(50) NOT NULL DEFAULT '', mobile varchar(11) NOT NULL DEFAULT '', login_failure tinyint unsigned NOT NULL DEFAULT 0, last_login_time bigint unsigned NULL,
    last_login_ip varchar(50) NOT NULL DEFAULT '', password varchar(32) NOT NULL DEFAULT '', salt varchar(30) NOT NULL DEFAULT '', motto varchar(255) NOT NULL DEFAULT '',
    status enum('0','1') NOT NULL DEFAULT '1', update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id), UNIQUE KEY username (username)`,
  admin_group: `id int unsigned NOT NULL AUTO_INCREMENT, pid int unsigned NOT NULL DEFAULT 0, name varchar(100) NOT NULL DEFAULT '', rules text NULL,
    status enum('0','1') NOT NULL DEFAULT '1', update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  admin_group_access: `uid int unsigned NOT NULL, group_id int unsigned NOT NULL, KEY uid (uid), KEY group_id (group_id)`,
  admin_log: `id int unsigned NOT NULL AUTO_INCREMENT, admin_id int unsigned NOT NULL DEFAULT 0, username varchar(20) NOT NULL DEFAULT '', url varchar(1500) NOT NULL DEFAULT '',
    title varchar(100) NOT NULL DEFAULT '', data longtext NULL, ip varchar(50) NOT NULL DEFAULT '', useragent varchar(255) NOT NULL DEFAULT '', create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  admin_rule: `id int unsigned NOT NULL AUTO_INCREMENT, pid int unsigned NOT NULL DEFAULT 0, type enum('menu_dir','menu','button') NOT NULL DEFAULT 'menu', title varchar(50) NOT NULL DEFAULT '',
    name varchar(50) NOT NULL DEFAULT '', path varchar(100) NOT NULL DEFAULT '', icon varchar(50) NOT NULL DEFAULT '', menu_type enum('tab','link','iframe') NULL, url varchar(255) NOT NULL DEFAULT '',
    component varchar(100) NOT NULL DEFAULT '', keepalive tinyint unsigned NOT NULL DEFAULT 0, extend enum('none','add_rules_only','add_menu_only') NOT NULL DEFAULT 'none',
    remark varchar(255) NOT NULL DEFAULT '', weigh int NOT NULL DEFAULT 0, status enum('0','1') NOT NULL DEFAULT '1', update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  area: `id int unsigned NOT NULL AUTO_INCREMENT, pid int unsigned NULL, shortname varchar(100) NULL, name varchar(100) NULL, mergename varchar(255) NULL, level tinyint unsigned NULL,
    pinyin varchar(100) NULL, code varchar(100) NULL, zip varchar(100) NULL, first varchar(50) NULL, lng varchar(50) NULL, lat varchar(50) NULL, PRIMARY KEY (id)`,
  attachment: `id int unsigned NOT NULL AUTO_INCREMENT, topic varchar(20) NOT NULL DEFAULT '', admin_id int unsigned NOT NULL DEFAULT 0, user_id int unsigned NOT NULL DEFAULT 0,
    url varchar(255) NOT NULL DEFAULT '', width int unsigned NOT NULL DEFAULT 0, height int unsigned NOT NULL DEFAULT 0, name varchar(100) NOT NULL DEFAULT '', size int unsigned NOT NULL DEFAULT 0,
    mimetype varchar(100) NOT NULL DEFAULT '', quote int unsigned NOT NULL DEFAULT 0, storage varchar(50) NOT NULL DEFAULT '', sha1 varchar(40) NOT NULL DEFAULT '',
    create_time bigint unsigned NULL, last_upload_time bigint unsigned NULL, PRIMARY KEY (id)`,
  captcha: `\`key\` varchar(32) NOT NULL DEFAULT '', code varchar(32) NOT NULL DEFAULT '', captcha text NULL, create_time bigint unsigned NULL, expire_time bigint unsigned NULL, PRIMARY KEY (\`key\`)`,
  config: `id int unsigned NOT NULL AUTO_INCREMENT, name varchar(30) NOT NULL DEFAULT '', \`group\` varchar(30) NOT NULL DEFAULT '', title varchar(50) NOT NULL DEFAULT '', tip varchar(100) NOT NULL DEFAULT '',
    type varchar(30) NOT NULL DEFAULT '', value longtext NULL, content longtext NULL, rule varchar(100) NOT NULL DEFAULT '', extend varchar(255) NOT NULL DEFAULT '',
    allow_del tinyint unsigned NOT NULL DEFAULT 0, weigh int NOT NULL DEFAULT 0, PRIMARY KEY (id), UNIQUE KEY name (name)`,
  crud_log: `id int unsigned NOT NULL AUTO_INCREMENT, table_name varchar(200) NOT NULL DEFAULT '', \`table\` text NULL, fields text NULL, status enum('delete','success','error','start') NOT NULL DEFAULT 'start',
    connection varchar(100) NOT NULL DEFAULT '', create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  security_data_recycle: `id int unsigned NOT NULL AUTO_INCREMENT, name varchar(50) NOT NULL DEFAULT '', controller varchar(100) NOT NULL DEFAULT '', controller_as varchar(100) NOT NULL DEFAULT '',
    data_table varchar(100) NOT NULL DEFAULT '', connection varchar(100) NOT NULL DEFAULT '', primary_key varchar(50) NOT NULL DEFAULT '', status enum('0','1') NOT NULL DEFAULT '1',
    update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  security_data_recycle_log: `id int unsigned NOT NULL AUTO_INCREMENT, admin_id int unsigned NOT NULL DEFAULT 0, recycle_id int unsigned NOT NULL DEFAULT 0, data text NULL,
    data_table varchar(100) NOT NULL DEFAULT '', connection varchar(100) NOT NULL DEFAULT '', primary_key varchar(50) NOT NULL DEFAULT '', is_restore tinyint unsigned NOT NULL DEFAULT 0,
    ip varchar(50) NOT NULL DEFAULT '', useragent varchar(255) NOT NULL DEFAULT '', create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  security_sensitive_data: `id int unsigned NOT NULL AUTO_INCREMENT, name varchar(50) NOT NULL DEFAULT '', controller varchar(100) NOT NULL DEFAULT '', controller_as varchar(100) NOT NULL DEFAULT '',
    data_table varchar(100) NOT NULL DEFAULT '', connection varchar(100) NOT NULL DEFAULT '', primary_key varchar(50) NOT NULL DEFAULT '', data_fields text NULL,
    status enum('0','1') NOT NULL DEFAULT '1', update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  security_sensitive_data_log: `id int unsigned NOT NULL AUTO_INCREMENT, admin_id int unsigned NOT NULL DEFAULT 0, sensitive_id int unsigned NOT NULL DEFAULT 0, data_table varchar(100) NOT NULL DEFAULT '',
    connection varchar(100) NOT NULL DEFAULT '', primary_key varchar(50) NOT NULL DEFAULT '', data_field varchar(50) NOT NULL DEFAULT '', data_comment varchar(50) NOT NULL DEFAULT '',
    id_value int NOT NULL DEFAULT 0, \`before\` text NULL, \`after\` text NULL, ip varchar(50) NOT NULL DEFAULT '', useragent varchar(255) NOT NULL DEFAULT '',
    is_rollback tinyint unsigned NOT NULL DEFAULT 0, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  test_build: `id int unsigned NOT NULL AUTO_INCREMENT, title varchar(100) NOT NULL DEFAULT '' COMMENT '标题', keyword_rows varchar(100) NOT NULL DEFAULT '', content text NULL,
    views int unsigned NOT NULL DEFAULT 0, status enum('0','1') NOT NULL DEFAULT '1' COMMENT '状态:0=隐藏,1=正常', weigh int NOT NULL DEFAULT 0,
    update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  token: `token varchar(50) NOT NULL DEFAULT '', type varchar(15) NOT NULL DEFAULT '', user_id int unsigned NOT NULL DEFAULT 0, create_time bigint unsigned NULL, expire_time bigint unsigned NULL, PRIMARY KEY (token)`,
  user: `id int unsigned NOT NULL AUTO_INCREMENT, group_id int unsigned NOT NULL DEFAULT 0, username varchar(32) NOT NULL DEFAULT '', nickname varchar(50) NOT NULL DEFAULT '',
    email varchar(50) NOT NULL DEFAULT '', mobile varchar(11) NOT NULL DEFAULT '', avatar varchar(255) NOT NULL DEFAULT '', gender tinyint unsigned NOT NULL DEFAULT 0, birthday date NULL,
    money int unsigned NOT NULL DEFAULT 0, score int unsigned NOT NULL DEFAULT 0, last_login_time bigint unsigned NULL, last_login_ip varchar(50) NOT NULL DEFAULT '',
    login_failure tinyint unsigned NOT NULL DEFAULT 0, join_ip varchar(50) NOT NULL DEFAULT '', join_time bigint unsigned NULL, motto varchar(255) NOT NULL DEFAULT '',
    password varchar(32) NOT NULL DEFAULT '', salt varchar(30) NOT NULL DEFAULT '', status varchar(30) NOT NULL DEFAULT '', update_time bigint unsigned NULL, create_time bigint unsigned NULL,
    PRIMARY KEY (id), UNIQUE KEY username (username)`,
  user_group: `id int unsigned NOT NULL AUTO_INCREMENT, name varchar(50) NOT NULL DEFAULT '', rules text NULL, status enum('0','1') NOT NULL DEFAULT '1',
    update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  user_money_log: `id int unsigned NOT NULL AUTO_INCREMENT, user_id int unsigned NOT NULL DEFAULT 0, money int NOT NULL DEFAULT 0, \`before\` int NOT NULL DEFAULT 0, \`after\` int NOT NULL DEFAULT 0,
    memo varchar(255) NOT NULL DEFAULT '', create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  user_rule: `id int unsigned NOT NULL AUTO_INCREMENT, pid int unsigned NOT NULL DEFAULT 0, type enum('route','menu_dir','menu','nav_user_menu','nav','button') NOT NULL DEFAULT 'menu',
    title varchar(50) NOT NULL DEFAULT '', name varchar(50) NOT NULL DEFAULT '', path varchar(100) NOT NULL DEFAULT '', icon varchar(50) NOT NULL DEFAULT '',
    menu_type enum('tab','link','iframe') NOT NULL DEFAULT 'tab', url varchar(255) NOT NULL DEFAULT '', component varchar(100) NOT NULL DEFAULT '',
    no_login_valid tinyint unsigned NOT NULL DEFAULT 0, extend enum('none','add_rules_only','add_menu_only') NOT NULL DEFAULT 'none', remark varchar(255) NOT NULL DEFAULT '',
    weigh int NOT NULL DEFAULT 0, status enum('0','1') NOT NULL DEFAULT '1', update_time bigint unsigned NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  user_score_log: `id int unsigned NOT NULL AUTO_INCREMENT, user_id int unsigned NOT NULL DEFAULT 0, score int NOT NULL DEFAULT 0, \`before\` int NOT NULL DEFAULT 0, \`after\` int NOT NULL DEFAULT 0,
    memo varchar(255) NOT NULL DEFAULT '', create_time bigint unsigned NULL, PRIMARY KEY (id)`,
  // a fork's table that happens to share a name with one of ours: left alone, not mixed into ours
  team: `id int unsigned NOT NULL AUTO_INCREMENT, name varchar(50) NOT NULL DEFAULT '', PRIMARY KEY (id)`,
  // a fork's own table, which the import lists and drafts a schema for
  shop_order: `id int unsigned NOT NULL AUTO_INCREMENT, user_id int unsigned NOT NULL DEFAULT 0 COMMENT '会员', amount decimal(10,2) NOT NULL DEFAULT 0.00 COMMENT '金额',
    state enum('paid','refunded') NOT NULL DEFAULT 'paid' COMMENT '状态', note varchar(200) NULL, create_time bigint unsigned NULL, PRIMARY KEY (id)`,
};

/** the numbered members (member001 …), besides the site's own `user` */
export const MEMBER_COUNT = 200;
/** an administrator who last signed in to BuildAdmin at 2024-03-01 10:00:00 UTC */
export const EDITOR = { username: 'editor1', password: 'Editor_pass1', lastLoginTime: 1_709_287_200, lastLoginIp: '10.0.0.9' };
export const MEMBER = { username: 'member001', password: 'Member_pass1' };
/** every BuildAdmin site's super administrator (id 1), whose name our seeded administrator has too */
export const SITE_ADMIN = { username: 'admin', password: 'Old_admin1', nickname: 'Site owner', email: 'owner@old-site.example', mobile: '13800000001', motto: 'Since 2019' };
/**
 * BuildAdmin's demo member as a site keeps it, named as our seeded member and with its email and mobile
 * (BuildAdmin seeds the same two), with a profile and ledgers of its own.
 */
export const SITE_MEMBER = { id: MEMBER_COUNT + 1, username: 'user', password: 'Site_user1', nickname: 'Old user', email: '18888888888@qq.com', mobile: '18888888888', gender: 1, birthday: '1995-03-08', motto: 'Here since the start', money: [1500, 2500], score: [40] };
/** a member whose stored balance BuildAdmin let drift from the money log (the import reports it) */
export const DRIFTED_MEMBER = 'member007';
export const ATTACHMENT_FILES = ['default/20240105/5f2b.png', 'default/20240106/77aa.jpg'];
export const MISSING_ATTACHMENT = '/storage/default/20240107/gone.png';

export interface BuildAdminDatabase {
  /** mysql://… URL of the database */
  url: string;
  name: string;
  /** run a statement on it (adding rows between imports) */
  query(statement: string, values?: unknown[]): Promise<unknown>;
  count(table: string): Promise<number>;
  drop(): Promise<void>;
}

async function connect(database?: string): Promise<mysql.Connection> {
  const url = new URL(MYSQL_ADMIN_URL);
  return mysql.createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username) || 'root', password: decodeURIComponent(url.password), database, charset: 'utf8mb4' });
}

function urlOf(name: string): string {
  const url = new URL(MYSQL_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** An empty database of another application (for the "not BuildAdmin" input). */
export async function createOtherDatabase(): Promise<BuildAdminDatabase> {
  return createDatabase('notba', async (connection) => {
    await connection.query('CREATE TABLE wp_posts (id int unsigned NOT NULL AUTO_INCREMENT, title varchar(100) NOT NULL, PRIMARY KEY (id))');
  });
}

async function createDatabase(kind: string, fill: (connection: mysql.Connection) => Promise<void>): Promise<BuildAdminDatabase> {
  const name = `${kind}_${randomBytes(5).toString('hex')}`;
  const admin = await connect();
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const connection = await connect(name);
  const drop = async () => {
    await connection.end();
    const again = await connect();
    await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await again.end();
  };
  try {
    await fill(connection);
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    url: urlOf(name),
    name,
    query: async (statement, values) => (await connection.query(statement, values))[0],
    count: async (table) => Number(((await connection.query(`SELECT count(*) AS total FROM \`${table}\``))[0] as { total: number }[])[0].total),
    drop,
  };
}

/** Create and fill a BuildAdmin database with the table prefix `ba_`. */
export async function createBuildAdminDatabase(): Promise<BuildAdminDatabase> {
  return createDatabase('ba_import', async (connection) => {
    for (const [table, columns] of Object.entries(TABLES)) {
      await connection.query(`CREATE TABLE \`ba_${table}\` (${columns}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    }
    const insert = async (table: string, rows: Record<string, unknown>[]) => {
      for (const row of rows) await connection.query(`INSERT INTO \`ba_${table}\` SET ?`, [row]);
    };
    const time = 1_704_067_200; // 2024-01-01

    await insert('admin_rule', [
      { id: 1, pid: 0, type: 'menu', title: '管理员管理', name: 'auth/admin', path: 'auth/admin', component: '/src/views/backend/auth/admin/index.vue' },
      { id: 2, pid: 1, type: 'button', title: '查看', name: 'auth/admin/index', path: '', component: '' },
      { id: 3, pid: 0, type: 'menu', title: '订单', name: 'shop/order', path: 'shop/order', component: '/src/views/backend/shop/order/index.vue' },
      { id: 4, pid: 3, type: 'button', title: '查看', name: 'shop/order/index', path: '', component: '' },
    ]);
    await insert('user_rule', [
      { id: 1, pid: 0, type: 'menu_dir', title: '我的账户', name: 'account', path: 'account' },
      { id: 2, pid: 1, type: 'menu', title: '账户概览', name: 'account/overview', path: 'account/overview' },
      { id: 3, pid: 1, type: 'menu', title: '我的订单', name: 'account/orders', path: 'account/orders' },
    ]);
    await insert('admin_group', [
      { id: 1, pid: 0, name: '超级管理组', rules: '*', status: '1', create_time: time },
      { id: 2, pid: 1, name: 'Editors', rules: '1,2,3,4', status: '1', create_time: time },
    ]);
    const salt = (index: number) => `s${index}x${'ab'.repeat(5)}`;
    await insert('admin', [
      { id: 1, username: SITE_ADMIN.username, nickname: SITE_ADMIN.nickname, email: SITE_ADMIN.email, mobile: SITE_ADMIN.mobile, motto: SITE_ADMIN.motto, password: buildAdminHash(SITE_ADMIN.password, salt(1)), salt: salt(1), status: '1', create_time: time },
      { id: 2, username: EDITOR.username, nickname: 'Editor', email: 'editor@example.com', mobile: '13800000002', password: buildAdminHash(EDITOR.password, salt(2)), salt: salt(2), status: '1', create_time: time, last_login_time: EDITOR.lastLoginTime, last_login_ip: EDITOR.lastLoginIp },
      { id: 3, username: 'retired', nickname: 'Retired', password: buildAdminHash('Retired_1', salt(3)), salt: salt(3), status: '0', create_time: time },
    ]);
    await insert('admin_group_access', [{ uid: 1, group_id: 1 }, { uid: 2, group_id: 2 }, { uid: 3, group_id: 2 }]);
    await insert('user_group', [
      { id: 1, name: '默认分组', rules: '1,2', status: '1', create_time: time },
      { id: 2, name: 'VIP', rules: '1,2,3', status: '1', create_time: time },
    ]);

    const members: Record<string, unknown>[] = [];
    const moneyLog: Record<string, unknown>[] = [];
    const scoreLog: Record<string, unknown>[] = [];
    for (let id = 1; id <= MEMBER_COUNT; id += 1) {
      const username = `member${String(id).padStart(3, '0')}`;
      let money = 0;
      for (let entry = 0; entry < id % 3; entry += 1) {
        const amount = 1000 + ((id * 37 + entry * 11) % 5000);
        moneyLog.push({ user_id: id, money: amount, before: money, after: money + amount, memo: 'Recharge', create_time: time + id * 60 + entry });
        money += amount;
      }
      let score = 0;
      if (id % 2 === 0) {
        scoreLog.push({ user_id: id, score: id, before: 0, after: id, memo: 'Sign in', create_time: time + id * 60 });
        score = id;
      }
      const password = username === MEMBER.username ? MEMBER.password : `Pass_${id}x`;
      members.push({
        id,
        group_id: id % 10 === 0 ? 2 : 1,
        username,
        nickname: `Member ${id}`,
        email: `${username}@example.com`,
        mobile: `139${String(id).padStart(8, '0')}`,
        gender: id % 3,
        birthday: id % 4 === 0 ? '1990-05-17' : null,
        money: username === DRIFTED_MEMBER ? money + 500 : money,
        score,
        join_ip: '10.0.0.1',
        join_time: time + id,
        password: buildAdminHash(password, salt(100 + id)),
        salt: salt(100 + id),
        status: id === 13 ? 'disable' : 'enable',
        create_time: time + id,
        update_time: time + id,
      });
    }
    const { id: siteId, password: sitePassword, money: siteMoney, score: siteScore, ...siteProfile } = SITE_MEMBER;
    let balance = 0;
    for (const amount of siteMoney) {
      moneyLog.push({ user_id: siteId, money: amount, before: balance, after: balance + amount, memo: 'Recharge', create_time: time + siteId * 60 });
      balance += amount;
    }
    scoreLog.push({ user_id: siteId, score: siteScore[0], before: 0, after: siteScore[0], memo: 'Sign in', create_time: time + siteId * 60 });
    members.push({ id: siteId, group_id: 1, ...siteProfile, money: balance, score: siteScore[0], join_ip: '10.0.0.2', join_time: time, password: buildAdminHash(sitePassword, salt(100 + siteId)), salt: salt(100 + siteId), status: 'enable', create_time: time, update_time: time });
    await insert('user', members);
    await insert('user_money_log', moneyLog);
    await insert('user_score_log', scoreLog);

    await insert('attachment', [
      { topic: 'default', admin_id: 2, user_id: 0, url: `/storage/${ATTACHMENT_FILES[0]}`, width: 1, height: 1, name: 'logo.png', size: 68, mimetype: 'image/png', quote: 1, storage: 'local', sha1: 'a'.repeat(40), create_time: time },
      { topic: 'default', admin_id: 0, user_id: 1, url: `/storage/${ATTACHMENT_FILES[1]}`, width: 2, height: 2, name: 'photo.jpg', size: 12, mimetype: 'image/jpeg', quote: 1, storage: 'local', sha1: 'b'.repeat(40), create_time: time },
      { topic: 'default', admin_id: 2, user_id: 0, url: MISSING_ATTACHMENT, width: 0, height: 0, name: 'gone.png', size: 1, mimetype: 'image/png', quote: 1, storage: 'local', sha1: 'c'.repeat(40), create_time: time },
    ]);
    await insert('config', [
      { name: 'site_name', group: 'basics', title: 'Site Name', type: 'string', value: 'Old BuildAdmin Site', rule: 'required', weigh: 99 },
      { name: 'backend_entrance', group: 'basics', title: 'Backend entrance', type: 'string', value: '/admin', rule: 'required', weigh: 1 },
      { name: 'smtp_server', group: 'mail', title: 'SMTP server', type: 'string', value: 'smtp.old-site.example', rule: '', weigh: 9 },
      { name: 'shop_currency', group: 'basics', title: 'Currency', type: 'string', value: 'CNY', rule: '', weigh: 0 },
    ]);
    const logs: Record<string, unknown>[] = [];
    for (let index = 0; index < 60; index += 1) logs.push({ admin_id: index % 2 === 0 ? 1 : 2, username: index % 2 === 0 ? 'admin' : EDITOR.username, url: '/admin/user.User/edit', title: '会员管理-编辑', data: JSON.stringify({ id: index }), ip: '10.0.0.9', useragent: 'Mozilla/5.0', create_time: time + index });
    await insert('admin_log', logs);
    await insert('security_data_recycle', [
      { name: '管理员', controller: 'auth/Admin.php', controller_as: 'auth/admin', data_table: 'admin', primary_key: 'id', status: '1', create_time: time },
      { name: '订单', controller: 'shop/Order.php', controller_as: 'shop/order', data_table: 'shop_order', primary_key: 'id', status: '1', create_time: time },
    ]);
    await insert('security_data_recycle_log', [
      { admin_id: 1, recycle_id: 2, data: JSON.stringify({ id: 9, amount: '1.00' }), data_table: 'shop_order', primary_key: 'id', is_restore: 0, ip: '10.0.0.9', useragent: 'Mozilla/5.0', create_time: time },
    ]);
    await insert('security_sensitive_data', [
      { name: '订单金额', controller: 'shop/Order.php', controller_as: 'shop/order', data_table: 'shop_order', primary_key: 'id', data_fields: JSON.stringify({ amount: '金额' }), status: '1', create_time: time },
    ]);
    await insert('security_sensitive_data_log', [
      { admin_id: 2, sensitive_id: 1, data_table: 'shop_order', primary_key: 'id', data_field: 'amount', data_comment: '金额', id_value: 9, before: '1.00', after: '2.00', ip: '10.0.0.9', useragent: 'Mozilla/5.0', is_rollback: 0, create_time: time },
    ]);
    await insert('test_build', [{ title: 'Hello', keyword_rows: 'a', content: 'text', views: 3, status: '1', weigh: 0, create_time: time }]);
    await insert('shop_order', [
      { user_id: 1, amount: '12.50', state: 'paid', note: null, create_time: time },
      { user_id: 2, amount: '3.00', state: 'refunded', note: 'late', create_time: time },
    ]);
    await insert('team', [{ name: 'Fork team' }]);
    await insert('token', [{ token: 'old-session', type: 'user', user_id: 1, create_time: time, expire_time: time + 100 }]);
  });
}
