// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { reactRouterProvider as adapter } from '../../../src/client/shims/ra-router-adapter.js';
import { renderInRouter } from './render-app.js';

/** What react-admin routes with in the app: react-router's declarative parts, inside the app's own router. */

afterEach(cleanup);

describe('the router adapter react-admin uses', () => {
  it('says navigation cannot be blocked, so react-admin’s forms leave their unsaved-changes warning off', () => {
    let canBlock: boolean | undefined;
    function Probe() {
      canBlock = adapter.useCanBlock();
      return null;
    }
    renderInRouter(<Probe />, '/');
    expect(canBlock).toBe(false);
  });

  it('adds no router of its own: what it wraps is drawn as it is, in the router around it', () => {
    function Where() {
      return <p>at {adapter.useLocation().pathname}</p>;
    }
    renderInRouter(
      <adapter.RouterWrapper basename="/ignored">
        <Where />
      </adapter.RouterWrapper>,
      '/user/login',
    );
    expect(screen.getByText('at /user/login')).toBeTruthy();
  });

  it('hands out one navigate function for a component’s life, which goes where it is told', async () => {
    const seen = new Set<unknown>();
    function Pages() {
      const navigate = adapter.useNavigate();
      const [, redraw] = useState(0);
      seen.add(navigate);
      return (
        <>
          <button type="button" onClick={() => navigate('/b')}>go</button>
          <button type="button" onClick={() => redraw((n) => n + 1)}>redraw</button>
          <Routes>
            <Route path="/a" element={<p>page a</p>} />
            <Route path="/b" element={<p>page b</p>} />
          </Routes>
        </>
      );
    }
    const { router } = renderInRouter(<Pages />, '/a');
    expect(screen.getByText('page a')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(await screen.findByText('page b')).toBeTruthy();
    expect(router.location.pathname).toBe('/b');
    fireEvent.click(screen.getByRole('button', { name: 'redraw' }));
    expect(seen.size).toBe(1);
  });
});
