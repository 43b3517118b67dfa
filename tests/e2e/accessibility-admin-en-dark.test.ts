import { describe, it } from 'vitest';
import { backOfficeRig, sweepBackOffice } from './back-office-sweep.js';

/**
 * The back office against WCAG 2.1 AA with axe-core in English, dark scheme: the admin login and every screen
 * the menus open, with each schema's add form, edit form and details view. Names and labels depend on
 * the language and colours on the scheme, so this file and its sibling in the other language and scheme
 * together cover both languages and both schemes.
 */

backOfficeRig();

describe('back office accessibility (en, dark)', () => {
  it('has no critical or serious violation on any screen', () => sweepBackOffice('en', 'dark'), 600_000);
});
