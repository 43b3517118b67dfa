import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { routes } from '../../../src/client/router.js';

/** The whole app's routes in a memory router, started at `path`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  return { router, ...view };
}

export function signInAdmin(): void {
  localStorage.setItem('adminInfo', JSON.stringify({ id: 1, username: 'admin', nickname: 'Admin', token: 'tok', refresh_token: 'ref', super: true }));
}
