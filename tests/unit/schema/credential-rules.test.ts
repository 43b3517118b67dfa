import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USERNAME_PATTERN } from '../../../src/contract/credentials.js';

/**
 * The login pages check a username before the schemas are loaded, with the contract's rule; the schemas
 * check it on every save. Both must be the same rule, or an account could be created that cannot log in.
 */

describe('the username rule', () => {
  it.each(['system/admin', 'system/user'])('of %s is the contract\'s', (id) => {
    const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../schemas', `${id}.json`), 'utf8')) as { properties: { username: { pattern: string } } };
    expect(schema.properties.username.pattern).toBe(USERNAME_PATTERN.source);
  });
});
