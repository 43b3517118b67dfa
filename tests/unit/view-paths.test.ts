import { describe, expect, it } from 'vitest';
import { backendViewPath, isMemberViewPath, memberPageNameOf, pageNameOf } from '../../src/contract/view-paths.js';

describe('BuildAdmin view paths of menu rules', () => {
  it('names a generated screen by its menu, as BuildAdmin’s router expects', () => {
    expect(backendViewPath('auth/admin')).toBe('/src/views/backend/auth/admin/index.vue');
  });

  it('reads the page back from either kind of view file, and leaves other values alone', () => {
    expect(pageNameOf('/src/views/backend/auth/admin/index.vue')).toBe('auth/admin');
    expect(pageNameOf('/src/views/backend/dashboard.vue')).toBe('dashboard');
    expect(pageNameOf('/src/views/backend/routine/adminInfo.vue')).toBe('routine/adminInfo');
    expect(pageNameOf('system/admin')).toBe('system/admin');
    expect(pageNameOf('')).toBe('');
  });

  it('reads a member page back from BuildAdmin’s member-centre view file; our own names stay', () => {
    expect(memberPageNameOf('/src/views/frontend/user/account/changePassword.vue')).toBe('account/changePassword');
    expect(memberPageNameOf('survey/tasks')).toBe('survey/tasks');
    expect(isMemberViewPath('/src/views/frontend/user/account/balance.vue')).toBe(true);
    expect(isMemberViewPath('account/balance')).toBe(false);
    expect(isMemberViewPath('/src/views/backend/dashboard.vue')).toBe(false);
  });
});
