import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { deadEnds } from './scripts/eslint/dead-ends.js';

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
);
