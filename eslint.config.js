import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers, checked rather than fixed once (README, "Develop"): each folder lists what it may not import.
 * Type-only imports are allowed where a layer names a type of the one above it (http/ names the hooks a
 * generated controller carries).
 */
function forbid(files, group, message, allowTypeImports = false) {
  return { files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group, message, allowTypeImports }] }] } };
}

const SERVER_BELOW_REQUESTS = ['services', 'auth', 'db', 'uploads', 'mail', 'sms', 'captcha', 'crypto'].map((folder) => `src/server/${folder}/**`);

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'src/generated/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  forbid(
    SERVER_BELOW_REQUESTS,
    ['**/http/**', '**/controllers/**', '**/resources/**', '**/controller-registry.js', 'fastify', '@fastify/*'],
    'Services and the layers below them know nothing of HTTP, controllers or the resource engine: they take the app and plain values and return values or throw ApiError.',
  ),
  forbid(['src/server/resources/**'], ['**/controllers/**', '**/controller-registry.js'], 'The resource engine and hooks do not import controllers; request types live in http/controller.ts.'),
  forbid(['src/server/http/**'], ['**/controllers/**', '**/resources/**', '**/controller-registry.js'], 'http/ finds controllers through app.controllers, never by import.', true),
  forbid(['src/schema/**', 'src/contract/**'], ['**/server/**', '**/client/**'], 'The schema and the contract sit below the server and the client and import neither.'),
  forbid(['src/client/**'], ['**/server/**'], 'The client talks to the server over HTTP only; shared rules live in src/schema or src/contract.'),
);
