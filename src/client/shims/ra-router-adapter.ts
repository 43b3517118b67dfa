import { useCallback, useEffect, useRef } from 'react';
import {
  Link,
  matchPath,
  Navigate,
  Outlet,
  Route,
  Routes,
  useBlocker,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useParams,
} from 'react-router-dom';
import type { RouterProvider } from 'ra-core';

/**
 * What react-admin routes with, in place of its own react-router adapter (vite.config.ts points
 * ra-core's import of that module here). Its adapter also builds a hash router of its own for an app
 * without a router, which pulls react-router's whole data router (createHashRouter, RouterProvider)
 * into the bundle. This app always draws react-admin inside its own router (src/client/main.tsx), so
 * that case never arises: everything else is react-router's declarative parts, unchanged.
 */

type NavigateTo = ReturnType<RouterProvider['useNavigate']>;

/** react-router's navigate, as one function for the component's life: it changes on every navigation, which would redraw every user. */
function useStableNavigate(): NavigateTo {
  const navigate = useNavigate();
  const latest = useRef(navigate);
  useEffect(() => {
    latest.current = navigate;
  }, [navigate]);
  return useCallback<NavigateTo>((to, options) => {
    if (typeof to === 'number') void latest.current(to);
    else void latest.current(to, options);
  }, []);
}

/**
 * Blocking a navigation needs a data router, which the app does not use: react-admin's forms leave their
 * unsaved-changes warning off (the app's dialogs guard unsaved changes themselves).
 */
const useCanBlock = () => false;

/** Always inside the app's router: nothing to add. */
const RouterWrapper: RouterProvider['RouterWrapper'] = ({ children }) => children;

export const reactRouterProvider: RouterProvider = {
  useNavigate: useStableNavigate,
  useLocation,
  useParams: useParams as RouterProvider['useParams'],
  useBlocker: useBlocker,
  useMatch,
  useInRouterContext,
  useCanBlock,
  Link: Link,
  Navigate,
  Route: Route as RouterProvider['Route'],
  Routes: Routes as RouterProvider['Routes'],
  Outlet,
  RouterWrapper,
  matchPath,
};
