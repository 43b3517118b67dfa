/**
 * `Object.entries`, for the message library (react-admin's translator) that asks for the
 * `object.entries` polyfill package: every browser the client supports has it built in, and the
 * polyfill brings a dozen helper packages (several kilobytes) along. vite.config.ts points the
 * package's name here.
 */
const entries: (value: object) => [string, unknown][] = Object.entries;
export default entries;
