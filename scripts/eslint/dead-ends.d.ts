import type { ESLint } from 'eslint';

/** The project's own lint rules (`dead-ends.js`). */
export declare const deadEnds: ESLint.Plugin;
