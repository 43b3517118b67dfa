import { configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default; with the API and browser suites sharing two cores, a
// screen (the first one loads react-admin and MUI) may take several seconds to settle without anything
// being wrong. A failing wait still fails, only later.
configure({ asyncUtilTimeout: 15_000 });
