/**
 * The account rules both ends check: the client before anything is sent, the server again. A username
 * is 3 to 15 characters, begins with a letter, then letters, digits and underscore; the `username`
 * patterns of `schemas/system/admin.json` and `schemas/system/user.json` are this one
 * (tests/unit/schema/credential-rules.test.ts keeps them equal).
 */
export const USERNAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{2,14}$/;

/**
 * 6 to 32 characters, none of `& < > " '` nor a line break; the `password` patterns of the same two
 * schemas are this one (kept equal by the same test).
 */
export const PASSWORD_PATTERN = /^(?!.*[&<>"'\n\r]).{6,32}$/;

/** What a login name, a registration address or a payment account must look like to be taken as an email address. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The longest email address a member's account holds (the `email` column). */
export const EMAIL_MAX_LENGTH = 50;

/** A mainland China mobile number, as BuildAdmin validates it: the schemas' `mobile` format (src/schema/formats.ts) is this one. */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
