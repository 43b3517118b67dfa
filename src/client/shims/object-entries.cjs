/**
 * `Object.entries`, for the message library (react-admin's translator) that requires the
 * `object.entries` polyfill package: every browser the client supports has it built in, and the
 * polyfill brings a dozen helper packages (several kilobytes) along. vite.config.ts points the
 * package's name here. CommonJS, as the package it stands in for: the library requires a function.
 */
module.exports = Object.entries;
