import { lazy, Suspense } from 'react';
import { Loading } from 'react-admin';
import type { GeneratedFormPageProps } from './GeneratedForm.js';

/**
 * The generated add and edit screens, loaded when one opens: their inputs, editors and the schema's
 * input checks are not on a list's path (npm run bench:ui prints what a list loads). Same props as
 * GeneratedCreate and GeneratedEdit; the loading indicator shows until the code is in.
 */
const LoadedCreate = lazy(async () => ({ default: (await import('./GeneratedCreate.js')).GeneratedCreate }));
const LoadedEdit = lazy(async () => ({ default: (await import('./GeneratedEdit.js')).GeneratedEdit }));

export function GeneratedCreate(props: GeneratedFormPageProps) {
  return (
    <Suspense fallback={<Loading />}>
      <LoadedCreate {...props} />
    </Suspense>
  );
}

export function GeneratedEdit(props: GeneratedFormPageProps) {
  return (
    <Suspense fallback={<Loading />}>
      <LoadedEdit {...props} />
    </Suspense>
  );
}
