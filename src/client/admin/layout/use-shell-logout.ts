import { useCallback } from 'react';
import { useAuthProvider } from 'react-admin';
import { resetBootstrap } from '../bootstrap-store.js';
import { ADMIN_BASE } from '../admin-base.js';

/**
 * Logout (docs/client.md#local-storage): the auth provider revokes the tokens and clears `adminInfo`; the page then
 * reloads on the login route, which drops every cached list and the menus of this admin.
 */
export function useShellLogout(assign: (url: string) => void = (url) => window.location.assign(url)): () => Promise<void> {
  const authProvider = useAuthProvider();
  return useCallback(async () => {
    try {
      await authProvider?.logout({});
    } finally {
      resetBootstrap();
      assign(`${ADMIN_BASE}/login`);
    }
  }, [authProvider, assign]);
}
