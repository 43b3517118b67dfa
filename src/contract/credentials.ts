/**
 * The account rules both ends check: the client before anything is sent, the server again. A username
 * is 3 to 15 characters, begins with a letter, then letters, digits and underscore; the `username`
 * patterns of `schemas/system/admin.json` and `schemas/system/user.json` are this one
 * (tests/unit/schema/credential-rules.test.ts keeps them equal).
 */
export const USERNAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{2,14}$/;

/** 6 to 32 characters, none of `& < > " '` nor a line break. */
export const PASSWORD_PATTERN = /^(?!.*[&<>"'\n\r]).{6,32}$/;
