import { act, render } from '@testing-library/react';
import { useLayoutEffect, type ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate, type InitialEntry, type Location, type NavigateFunction } from 'react-router-dom';
import { AppRoutes } from '../../../src/client/router.js';

/** A memory router seen from a test: where it is now (as drawn) and a way to go elsewhere. */
export interface TestRouter {
  readonly location: Location;
  navigate(to: string): Promise<void>;
}

function Watch({ into }: { into: { location?: Location; navigate?: NavigateFunction } }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    into.location = location;
    into.navigate = navigate;
  }, [into, location, navigate]);
  return null;
}

/** `children` inside a memory router started at `entry`. */
export function renderInRouter(children: ReactNode, entry: InitialEntry) {
  const seen: { location?: Location; navigate?: NavigateFunction } = {};
  const view = render(
    <MemoryRouter initialEntries={[entry]}>
      <Watch into={seen} />
      {children}
    </MemoryRouter>,
  );
  const router: TestRouter = {
    get location() {
      if (!seen.location) throw new Error('the router has not been drawn');
      return seen.location;
    },
    async navigate(to) {
      await act(async () => void seen.navigate?.(to));
    },
  };
  return { router, ...view };
}

/** The whole app's routes in a memory router, started at `path`. */
export function renderApp(path: string) {
  return renderInRouter(<AppRoutes />, path);
}

export function signInAdmin(): void {
  localStorage.setItem('adminInfo', JSON.stringify({ id: 1, username: 'admin', nickname: 'Admin', token: 'tok', refresh_token: 'ref', super: true }));
}
