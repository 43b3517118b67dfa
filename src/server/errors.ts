import { Code, LoginStateType } from '../contract/codes.js';
import type { ValidationIssue } from '../schema/validate-input.js';

/**
 * A handled failure: becomes `{code, msg, time, data}` over HTTP 200. `msg` is a message key, translated
 * with `params` for the request's language. Every error the API can answer is built here.
 */
export class ApiError extends Error {
  constructor(
    readonly msg: string,
    readonly params: readonly (string | number)[] = [],
    readonly code: number = Code.error,
    readonly data: unknown = null,
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

export const errors = {
  needLogin: () => new ApiError('Please login first', [], Code.loginState, { type: LoginStateType.needLogin }),
  loggedIn: () => new ApiError('You have already logged in. There is no need to log in again~', [], Code.loginState, { type: LoginStateType.loggedIn }),
  tokenExpired: () => new ApiError('Token expiration', [], Code.tokenExpired, []),
  noPermission: () => new ApiError('You have no permission to operate', [], Code.noPermission, []),
  parameterError: () => new ApiError('Parameter error'),
  parameterEmpty: (name = '') => new ApiError('Parameter %s can not be empty', [name]),
  invalidBody: () => new ApiError('The request body is not valid JSON'),
  recordNotFound: () => new ApiError('Record not found'),
  noRowsAdded: () => new ApiError('No rows were added'),
  noRowsUpdated: () => new ApiError('No rows updated'),
  noRowsDeleted: () => new ApiError('No rows were deleted'),
  sortWeightsEqual: () => new ApiError('Invalid sort, because these two target weight is equal.'),
  validation: (issue: ValidationIssue) => new ApiError(issue.message, issue.params, Code.error, { field: issue.field }),
  alreadyExists: (title: string, field?: string) => new ApiError('%s already exists', [title], Code.error, field ? { field } : null),
  invalidTransition: (title: string, from: string, to: string) => new ApiError('%s cannot change from "%s" to "%s"', [title, from, to]),
  unknownField: (name: string) => new ApiError('Unknown field: %s', [name]),
  invalidSearchValue: (name: string) => new ApiError('Invalid search value for %s', [name]),
  invalidPaging: (max: number) => new ApiError('page and limit must be whole numbers; limit at most %d', [max]),
  invalidQuickSearch: () => new ApiError('Quick search must be a short text'),
  testMailFailed: (reason: string) => new ApiError('Test mail sending failed: %s', [reason.slice(0, 300)]),
  databaseBusy: () => new ApiError('The server is busy, please try again later'),
  notFound: (path: string) => new ApiError('Error requesting address: %s', [path]),
  // login
  captchaError: () => new ApiError('Captcha error'),
  captchaFailed: () => new ApiError('The correct area is not clicked, please try again!'),
  usernameIncorrect: () => new ApiError('Username is incorrect'),
  accountNotExist: () => new ApiError('Account not exist'),
  passwordIncorrect: () => new ApiError('Password is incorrect'),
  accountDisabled: () => new ApiError('Account disabled'),
  loginLocked: () => new ApiError('Please try again after 1 day'),
  loginExpired: () => new ApiError('Login expired, please login again.'),
  invalidToken: () => new ApiError('Invalid token'),
  unknownOperation: () => new ApiError('Unknown operation'),
  noBackgroundMenu: () => new ApiError('No background menu, please contact super administrator!'),
  // admins and groups
  groupNotManageable: () => new ApiError('You have no permission to add an administrator to this group!'),
  cannotDisableSelf: () => new ApiError('Please use another administrator account to disable the current account!'),
  groupHasAllYourRights: () => new ApiError('Role group has all your rights, please contact the upper administrator to add or do not need to add!'),
  cannotEditOwnGroup: () => new ApiError('You cannot modify your own management group!'),
  unknownRule: () => new ApiError('The permission list holds a rule that does not exist'),
  deleteChildrenFirst: () => new ApiError('Please delete the child element first, or use batch deletion'),
  // ledger
  userNotFound: () => new ApiError("The user can't find it"),
  memoRequired: () => new ApiError('Change note cannot be blank'),
  balanceNegative: (title: string) => new ApiError('%s would become negative', [title]),
  ledgerNotEditable: () => new ApiError('Ledger entries cannot be changed or deleted'),
  // data security (contract §6.13, §6.15)
  noRowsRestored: () => new ApiError('No rows were restore'),
  noRowsRolledBack: () => new ApiError('No rows were rollback'),
  // uploads (spec §5, contract §8)
  noFileUploaded: () => new ApiError('No files were uploaded'),
  uploadIncomplete: () => new ApiError('The data of the uploaded file is incomplete!'),
  uploadTypeNotAllowed: () => new ApiError('The type of uploaded file is not allowed!'),
  uploadTooLarge: () => new ApiError('The size of the uploaded file exceeds the allowed range!'),
  invalidImage: () => new ApiError('The uploaded image file is not a valid image'),
  topicFormat: () => new ApiError('Topic format error'),
  driverNotSupported: (driver: string) => new ApiError('Driver %s not supported', [driver]),
  // request guards (contract §1.7, §1.8): sent as bare `{code, msg}` / `{msg}` bodies, not envelopes
  tooManyRequests: (seconds: number) => new ApiError('Please do not request frequently. Try again in %d seconds.', [seconds]),
  ipBlocked: () => new ApiError('No permission request'),
} as const;

/** A success with a message key, for actions that answer more than data. */
export class Success {
  constructor(readonly data: unknown = null, readonly msg = '', readonly params: readonly (string | number)[] = [], readonly code: number = Code.success) {}
}
