import { describe, expect, it } from 'vitest';
import { switchValues } from '../../../src/client/admin/fields/enum-options.js';
import { fullUrl } from '../../../src/client/admin/fields/value-format.js';
import { checkUpload } from '../../../src/client/admin/inputs/upload-check.js';
import { widgetOf } from '../../../src/schema/widget-of.js';
import { filterKeyOf, titleOfPath } from '../../../src/client/admin/resources/list-filters.js';
import { formatMessage } from '../../../src/client/admin/resources/schema-i18n.js';
import { DEFAULT_SITE_CONFIG } from '../../../src/client/admin/site-config-context.js';
import { schema } from './support.js';

describe('screen helpers', () => {
  it('checks uploads as BuildAdmin does: name and size, suffix or MIME type, maximum size', () => {
    const config = { ...DEFAULT_SITE_CONFIG.upload, allowedSuffixes: ['PNG', '.pdf'], allowedMimeTypes: ['text/csv'] };
    expect(checkUpload({ name: 'a.png', size: 10, type: 'image/png' }, config)).toBeUndefined();
    expect(checkUpload({ name: 'table.dat', size: 10, type: 'text/csv' }, config)).toBeUndefined();
    expect(checkUpload({ name: 'run.exe', size: 10, type: '' }, config)).toBe('type');
    expect(checkUpload({ name: '', size: 10 }, config)).toBe('incomplete');
    expect(checkUpload({ name: 'big.pdf', size: config.maxSize + 1 }, config)).toBe('size');
  });

  it('infers widgets the schemas do not declare', () => {
    const user = schema('system/user');
    const byName = (name: string) => widgetOf(user.fields.find((field) => field.name === name) as never);
    expect(byName('group_id')).toBe('remoteSelect');
    expect(byName('birthday')).toBe('date');
    expect(byName('status')).toBe('radio');
    expect(byName('username')).toBe('string');
    expect(byName('money')).toBe('money');
  });

  it('writes the switch values of each enum style', () => {
    const admin = schema('system/admin');
    const rule = schema('system/admin_rule');
    expect(switchValues(admin.fields.find((field) => field.name === 'status') as never)).toEqual({ on: '1', off: '0' });
    expect(switchValues(rule.fields.find((field) => field.name === 'keepalive') as never)).toEqual({ on: 1, off: 0 });
  });

  it('names filters and fills message params', () => {
    expect(filterKeyOf('status', '=')).toBe('status');
    expect(filterKeyOf('title', 'LIKE')).toBe('title@LIKE');
    expect(titleOfPath(schema('system/user_money_log'), 'user.nickname')).toEqual({ 'zh-cn': '昵称', en: 'Nickname' });
    expect(formatMessage('%s must not be greater than %d', ['Age', 120])).toBe('Age must not be greater than 120');
    expect(fullUrl('/storage/a.png', '//cdn.example.com/')).toBe('//cdn.example.com/storage/a.png');
    expect(fullUrl('https://x.test/a.png', '//cdn.example.com')).toBe('https://x.test/a.png');
  });
});
