import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { deadEnds } from './scripts/eslint/dead-ends.js';

/**
 * The layers, checked rather than fixed once (README, "Develop"): each folder lists what it may not import.
 * Type-only imports are allowed where a layer names a type of the one above it (http/ names the hooks a
 * generated controller carries).
 */
function forbid(files, group, message, allowTypeImports = false) {
  return { files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group, message, allowTypeImports }] }] } };
}

const SERVER_BELOW_REQUESTS = ['services', 'writes', 'auth', 'db', 'uploads', 'mail', 'sms', 'captcha', 'crypto'].map((folder) => `src/server/${folder}/**`);

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'src/generated/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'dead-ends': deadEnds },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // Code that does nothing while looking as if it did.
      'dead-ends/identical-branches': 'error',
      'dead-ends/self-replace': 'error',
      'no-unneeded-ternary': 'error',
      'no-useless-call': 'error',
      'no-useless-computed-key': 'error',
      'no-useless-concat': 'error',
      'no-useless-rename': 'error',
      'no-useless-return': 'error',
      'no-self-compare': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-lone-blocks': 'error',
      'no-extra-bind': 'error',
      '@typescript-eslint/no-useless-constructor': 'error',
      '@typescript-eslint/no-useless-empty-export': 'error',
    },
  },
  // The back office and the member centre are two areas of one shell (`src/client/shell`): what both
  // use lives there or in `src/client/components`, never in one area for the other to reach into.
  {
    files: ['src/client/member/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+admin/', message: 'The member centre does not import the back office: move what both use to src/client/shell or src/client/components.' }] }],
    },
  },
  {
    files: ['src/client/admin/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+member/', message: 'The back office does not import the member centre: move what both use to src/client/shell or src/client/components.' }] }],
    },
  },
  {
    files: ['src/client/shell/**/*.{ts,tsx}', 'src/client/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+(admin|member)/', message: 'The shared shell and components serve both areas: an area passes what is its own in (props, options).' }] }],
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
  // One registry of the errors the API answers: a new failure is a factory in errors.ts, found there by name.
  // A node the code writes out is checked with `allows`, typed with the nodes `npm run gen` finds declared.
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='ApiError']", message: 'Build API errors with a factory of `errors` in src/server/errors.ts (add one there).' },
        {
          selector: "CallExpression[callee.name='allowsComputed'] > :matches(Literal, TemplateLiteral[expressions.length=0]).arguments",
          message: 'A node written in the code is checked with `allows`, whose type knows the declared nodes (src/generated/permission-nodes.ts).',
        },
      ],
    },
  },
);
