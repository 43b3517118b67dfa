import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PASSWORD_PATTERN, USERNAME_PATTERN } from '../../../src/contract/credentials.js';

/**
 * The login pages check a username and a password before the schemas are loaded, with the contract's
 * rules (src/contract/credentials.ts); the schemas check them on every save. Each must be the same rule
 * at both ends, or an account could be created that cannot log in.
 */

describe('the username rule', () => {
  it.each(['system/admin', 'system/user'])('of %s is the contract\'s', (id) => {
    const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../schemas', `${id}.json`), 'utf8')) as { properties: { username: { pattern: string } } };
    expect(schema.properties.username.pattern).toBe(USERNAME_PATTERN.source);
  });
});

describe('the password rule', () => {
  it.each(['system/admin', 'system/user'])('of %s is the contract\'s', (id) => {
    const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../schemas', `${id}.json`), 'utf8')) as { properties: { password: { pattern: string } } };
    expect(schema.properties.password.pattern).toBe(PASSWORD_PATTERN.source);
  });
});
