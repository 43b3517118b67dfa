import { configure } from '@testing-library/react';
import { setDefinitions } from '../../src/client/schemas.js';
import { PROJECT_DEFINITIONS, PROJECT_SCHEMA_PAGES } from './definitions.js';

// findBy*/waitFor give up after 1 s by default; with the API and browser suites sharing two cores, a
// screen (the first one loads react-admin and MUI) may take several seconds to settle without anything
// being wrong. A failing wait still fails, only later.
configure({ asyncUtilTimeout: 15_000 });

// Screens are drawn from the definitions the server sends with the menus; tests that render a screen
// without a bootstrap start with every project schema known, as after a super admin's bootstrap.
setDefinitions(PROJECT_DEFINITIONS, PROJECT_SCHEMA_PAGES);
