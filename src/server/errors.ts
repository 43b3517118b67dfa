import { Code, LoginStateType } from '../contract/codes.js';
import { sameText, type MessageParam } from '../schema/local-text.js';
import type { ValidationIssue } from '../schema/validate-input.js';
import type { Translate } from './i18n.js';

/**
 * A handled failure: becomes `{code, msg, time, data}` over HTTP 200. `msg` is a message key, translated
 * with `params` for the request's language. Every error the API can answer is built here, by a factory of
 * `errors` whose name is the error's stable `id`: the envelope carries it as `data.errorId` (see `envelopeOf`),
 * so clients and tests tell refusals apart without reading the sentence, which may be reworded or translated.
 */
export class ApiError extends Error {
  /** the name of the `errors` factory that built it; set by `identified` */
  id = '';

  constructor(
    readonly msg: string,
    readonly params: readonly MessageParam[] = [],
    readonly code: number = Code.error,
    readonly data: unknown = null,
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

/** A module's clash already worded in the reader's language: what clashes, what holds it, and both as one line. */
interface ModuleClash {
  name: string;
  owner: string;
  message: string;
}

/** Several lines of detail (a refused migration's steps) as one message parameter. */
function inOneLine(lines: readonly string[]): string {
  return lines.join(' | ').slice(0, 1000);
}

/** Each factory of `factories` stamps the errors it builds with its own name as their id. */
function identified<Factories extends Record<string, (...args: never[]) => ApiError>>(factories: Factories): Factories {
  for (const [id, factory] of Object.entries(factories)) {
    Object.assign(factories, {
      [id]: (...args: Parameters<typeof factory>) => Object.assign(factory(...args), { id }),
    });
  }
  return factories;
}

export const errors = identified({
  needLogin: () => new ApiError('Please login first', [], Code.loginState, { type: LoginStateType.needLogin }),
  loggedIn: () => new ApiError('You have already logged in. There is no need to log in again~', [], Code.loginState, { type: LoginStateType.loggedIn }),
  tokenExpired: () => new ApiError('Token expiration', [], Code.tokenExpired, []),
  noPermission: () => new ApiError('You have no permission to operate', [], Code.noPermission, []),
  parameterError: () => new ApiError('Parameter error'),
  parameterEmpty: (name = '') => new ApiError('Parameter %s can not be empty', [name]),
  invalidBody: () => new ApiError('The request body is not valid JSON'),
  tooManyAttempts: (seconds: number) => new ApiError('Too many attempts, please retry in %d seconds', [seconds]),
  invalidCharacter: () => new ApiError('The request contains a character that is not allowed (NUL)'),
  bodyTooLarge: () => new ApiError('The request body is too large'),
  unsupportedMediaType: () => new ApiError('The content type of the request is not supported'),
  headersTooLarge: () => new ApiError('The address or the headers of the request are too long'),
  requestTimeout: () => new ApiError('Request timed out!'),
  recordNotFound: () => new ApiError('Record not found'),
  noRowsAdded: () => new ApiError('No rows were added'),
  noRowsUpdated: () => new ApiError('No rows updated'),
  noRowsDeleted: () => new ApiError('No rows were deleted'),
  sortWeightsEqual: () => new ApiError('Invalid sort, because these two target weight is equal.'),
  validation: (issue: ValidationIssue) => new ApiError(issue.message, issue.params, Code.error, { field: issue.field }),
  referenceMissing: (title: MessageParam, field: string) => new ApiError('The chosen %s does not exist', [title], Code.error, { field }),
  /** Every field's problem at once: `msg` and `data.field` name the first, `data.errors` maps each field to its message. */
  validationAll: (issues: readonly ValidationIssue[], t: Translate) =>
    new ApiError(issues[0].message, issues[0].params, Code.error, {
      field: issues[0].field,
      errors: Object.fromEntries(issues.map((issue) => [issue.field, t(issue.message, issue.params)])),
    }),
  alreadyExists: (title: MessageParam, field?: string) => new ApiError('%s already exists', [title], Code.error, field ? { field } : null),
  /** A required value left empty; `field` marks the input when the form has one. */
  fieldEmpty: (title: MessageParam, field?: string) => new ApiError('%s cannot be empty', [title], Code.error, field ? { field } : null),
  fieldFormat: (title: MessageParam) => new ApiError('%s has an invalid format', [title]),
  /** A write the database's unique index refused (two writes racing past the check before it). */
  duplicateData: () => new ApiError('The same data already exists in the system!'),
  /** `from` and `to` are the values' labels */
  invalidTransition: (title: MessageParam, from: MessageParam, to: MessageParam) => new ApiError('%s cannot change from "%s" to "%s"', [title, from, to]),
  unknownField: (name: string) => new ApiError('Unknown field: %s', [name]),
  invalidSearchValue: (title: MessageParam) => new ApiError('Invalid search value for %s', [title]),
  invalidPaging: (max: number) => new ApiError('page and limit must be whole numbers; limit at most %d', [max]),
  invalidChoice: (name: string, allowed: string) => new ApiError('%s must be one of: %s', [name, allowed], Code.error, { field: name }),
  invalidQuickSearch: () => new ApiError('Quick search must be a short text'),
  notSortable: (title: MessageParam) => new ApiError('The list cannot be ordered by %s', [title]),
  tableNotFound: (table: string) => new ApiError('Data table does not exist: %s', [table]),
  // the module store (`module/*`, docs/modules.md)
  moduleStoreOnlineUnavailable: () => new ApiError('Buying modules online is not available here: install a module from the list or upload its zip'),
  moduleSuperOnly: () => new ApiError('Only super administrators can use the module store', [], Code.noPermission, []),
  crudLogReadOnly: () => new ApiError('The CRUD log is written by the designer and cannot be changed'),
  terminalSuperOnly: () => new ApiError('Only super administrators can change the terminal settings', [], Code.noPermission, []),
  ruleNodeNotHeld: (name: string) => new ApiError('Only a super administrator can name a rule after a permission you do not hold: %s', [sameText(name)], Code.error, { field: 'name' }),
  moduleZipNotFound: () => new ApiError('Zip file not found'),
  /** `reason` is a message key of its own (translated as a parameter) */
  moduleZipUnreadable: (reason: string) => new ApiError('Unable to open the zip file: %s', [reason.slice(0, 300)]),
  moduleZipEntryUnreadable: (name: string, reason: string) => new ApiError('Unable to open the zip file: %s: %s', [sameText(name), reason]),
  /** `line` 0: the parser did not say where */
  moduleFileNotJson: (name: string, line: number) =>
    line > 0 ? new ApiError('The package file "%s" is not valid JSON (see line %d)', [sameText(name), line]) : new ApiError('The package file "%s" is not valid JSON', [sameText(name)]),
  moduleEntryUnsafe: (name: string) => new ApiError('The package entry "%s" is refused: paths must be relative, without "..", and links are not allowed', [name]),
  moduleEntryType: (name: string) => new ApiError('The package file "%s" is refused: a module holds only module.json, schemas, locale files, seed rows and PNG, JPEG, GIF or WebP images', [name]),
  moduleEntryTooLarge: (name: string, limitKb: number) => new ApiError('The package file "%s" is larger than %d KB', [name, limitKb]),
  modulePackageTooLarge: (limitMb: number, files: number) => new ApiError('The package is larger than %d MB once unpacked, or holds more than %d files', [limitMb, files]),
  moduleFileInvalid: (name: string, detail: string) => new ApiError('The package file "%s" is not valid: %s', [name, detail.slice(0, 300)]),
  moduleInfoIncomplete: (detail: string) => new ApiError('Basic configuration of the Module is incomplete: %s', [detail.slice(0, 300)]),
  moduleSchemaInvalid: (detail: string) => new ApiError('A schema of the module is not valid: %s', [detail.slice(0, 500)]),
  /**
   * BuildAdmin's conflict answer (code -1): `data.conflicts` lists each clash (its kinds and names, and its
   * words in the reader's language), `data.fileConflict` repeats them in BuildAdmin's shape for its dialog.
   */
  moduleConflict: (uid: string, clashes: readonly ModuleClash[]) =>
    new ApiError('The module clashes with what is installed: %s', [sameText(inOneLine(clashes.map((clash) => clash.message)))], -1, {
      uid, state: 2, conflicts: clashes,
      fileConflict: clashes.map((clash) => ({ newFile: clash.name, oldFile: clash.owner, solution: 'cover' })), dependConflict: [],
    }),
  /** the same clashes after the conflict dialog asked to go on: nothing is ever overwritten */
  moduleConflictRefused: (clashes: readonly ModuleClash[]) =>
    new ApiError('The module cannot be installed over what is installed: %s', [sameText(inOneLine(clashes.map((clash) => clash.message)))], Code.error, { conflicts: clashes }),
  moduleRequires: (uids: string) => new ApiError('The module needs these modules installed and enabled first: %s', [uids]),
  moduleRequiredBy: (uids: string) => new ApiError('These modules need this one, disable them first: %s', [uids]),
  moduleExists: () => new ApiError('Module already exists'),
  moduleNotFound: (uid: string) => new ApiError('No module "%s" was uploaded or is in the catalogue', [uid.slice(0, 60)]),
  moduleCannotDisable: () => new ApiError('The current state of the module cannot be set to disabled'),
  moduleCannotEnable: () => new ApiError('The current state of the module cannot be set to enabled'),
  moduleDisableFirst: (uid: string) => new ApiError('Please disable the module first', [], Code.error, { uid }),
  // the CRUD designer (`crud.Crud`)
  designIncomplete: () => new ApiError('The design needs a table name and at least one field'),
  tableNameNotAllowed: (name: string) => new ApiError('Table name "%s" is not allowed: lower-case letters, digits and "_", starting with a letter, at most 40 characters, not an SQL keyword', [name.slice(0, 60)]),
  tableReserved: (name: string) => new ApiError('Table "%s" is reserved for the system', [name]),
  tableTaken: (table: string, owner: string) => new ApiError('Table "%s" belongs to the resource "%s" and cannot be designed here', [table, owner]),
  fieldNameKept: (name: string) => new ApiError('Field name "%s" is kept by SQLite, PostgreSQL or JavaScript for themselves: choose another', [name.slice(0, 60)]),
  fieldNameNotAllowed: (name: string) => new ApiError('Field name "%s" is not allowed: lower-case letters, digits and "_", starting with a letter, at most 40 characters, not an SQL keyword', [name.slice(0, 60)]),
  fieldTwice: (name: MessageParam) => new ApiError('Field %s appears more than once', [name]),
  primaryKeyNeeded: () => new ApiError('The design needs exactly one primary key field'),
  snowflakeKeyRefused: (name: MessageParam) => new ApiError('Field %s: snowflake primary keys are not supported here; use an auto-increment primary key', [name]),
  passwordFieldRefused: (name: MessageParam) => new ApiError('Field %s: a password field is not supported in a designed module (it must be stored hashed, which a schema cannot do)', [name]),
  unknownDesignType: (name: MessageParam, type: string) => new ApiError('Field %s: unknown design type "%s"', [name, type.slice(0, 40)]),
  fieldOptionsMissing: (name: MessageParam) => new ApiError('Field %s: its options are written as "Title:value1=Label 1,value2=Label 2"', [name]),
  remoteSelectIncomplete: (name: MessageParam) => new ApiError('Field %s: a remote select needs the related table and the field shown as its label', [name]),
  remoteTableUnknown: (name: MessageParam, table: string) => new ApiError('Field %s: the related table "%s" is not a resource', [name, table.slice(0, 60)]),
  validatorUnsupported: (name: MessageParam, validator: string) => new ApiError('Field %s: the validator "%s" is not supported here', [name, validator.slice(0, 40)]),
  operatorUnsupported: (name: MessageParam, operator: string) => new ApiError('Field %s: the search operator "%s" is not supported', [name, operator.slice(0, 20)]),
  controllerTaken: (controller: string, menu: string) => new ApiError('The controller %s or the menu %s is already used by another module', [controller, menu]),
  optionColorUnknown: (field: MessageParam, option: MessageParam) => new ApiError('Field %s: the colour of option "%s" is not one the designer offers', [field, option]),
  defaultInvalid: (field: MessageParam, value: string) => new ApiError('Field %s: the default "%s" is not a value the field accepts', [field, sameText(value)]),
  optionValueKept: (field: MessageParam, value: string) => new ApiError('Field %s: the option value "%s" is a name every JavaScript object has; choose another', [field, sameText(value)]),
  remoteFieldUnknown: (field: MessageParam, related: MessageParam, column: string) => new ApiError('Field %s: "%s" has no field "%s" to show as the label', [field, related, sameText(column)]),
  designIconTooLong: (max: number) => new ApiError('The menu icon\'s name is at most %d characters', [max]),
  designWeighInvalid: () => new ApiError('The menu\'s weight must be a whole number'),
  designTitleTooLong: (max: number) => new ApiError('The module\'s title is at most %d characters in each language (it is the menu\'s title)', [max]),
  /** a design whose schema the registry refused: the field it concerns, in the screen's words, when the refusal names one */
  designFieldInvalid: (field: MessageParam) => new ApiError('Field %s cannot be generated with these settings: change them and try again', [field]),
  designInvalid: () => new ApiError('The module cannot be generated with these settings: change them and try again'),
  /** `data.destructive` lists the steps, for a screen to show before asking to confirm */
  /** `problems` are already worded in the reader's language (`crud/data-loss.ts`) */
  designDestructive: (problems: readonly string[]) => new ApiError('This change would lose data; confirm it to apply it: %s', [sameText(inOneLine(problems))], Code.error, { destructive: problems }),
  sqlStartRefused: () => new ApiError('Only an existing table can be a starting point here; starting from SQL is not supported'),
  noDesignedModule: (table: string) => new ApiError('No designed module uses the table %s', [table.slice(0, 100)]),
  /** BuildAdmin's answer when the table or controller exists: its screen asks whether to go on (code -1), showing this */
  generateConflict: (name: string, table: boolean, controller: boolean) =>
    controller
      ? new ApiError('The module of table %s already exists: generating changes it to this design. Its rows are kept; a change that would lose data is shown and needs your confirmation', [name], -1, { table, controller })
      : new ApiError('Table %s already exists: the module will use it with its rows. Columns the design adds are added; a change that would lose data is shown and needs your confirmation', [name], -1, { table, controller }),
  /** `data.type` lets a form offer to reload or overwrite; `update_time` is the row's current one. */
  staleRecord: (updateTime: number) => new ApiError('Someone else changed this record after you opened it', [], Code.error, { type: 'stale record', update_time: updateTime }),
  testMailFailed: (reason: string) => new ApiError('Test mail sending failed: %s', [reason.slice(0, 300)]),
  /** An unexpected failure: the user sees the request id to report, never what failed (that is in the log line of the same id). */
  internalError: (requestId: string) => new ApiError('Server internal error! Reference: %s', [requestId], Code.error, { request_id: requestId }),
  databaseBusy: () => new ApiError('The server is busy, please try again later'),
  /** A PostgreSQL connection lost or refused (a restart, a failover): nothing of the request was kept. */
  databaseUnreachable: () => new ApiError('The database cannot be reached at the moment, please try again shortly'),
  notFound: (path: string) => new ApiError('Error requesting address: %s', [path]),
  invalidIconNames: (max: number) => new ApiError('Icon names are lowercase letters, digits and dashes, separated by commas, at most %d at once', [max]),
  // login
  memberCenterDisabled: () => new ApiError('Member center disabled'),
  captchaError: () => new ApiError('Captcha error'),
  captchaFailed: () => new ApiError('The correct area is not clicked, please try again!'),
  /** an unknown account and a wrong password answer alike, so a login does not tell which accounts exist */
  loginFailed: () => new ApiError('Incorrect account or password'),
  /** A login body's shape, checked before any lookup (BuildAdmin's words). */
  incorrectUsername: () => new ApiError('Please input correct username'),
  incorrectPassword: () => new ApiError('Please input correct password'),
  accountNotExist: () => new ApiError('Account not exist'),
  accountDisabled: () => new ApiError('Account disabled'),
  loginLocked: () => new ApiError('Please try again after 1 day'),
  twoFactorNeedsOurClient: (entrance: string) => new ApiError('This account signs in with a one-time code, which this client cannot ask for: sign in at %s', [entrance]),
  twoFactorExpired: () => new ApiError('This sign-in has expired: enter your password again'),
  twoFactorCodeWrong: () => new ApiError('The code is not right or was already used: enter the current code from your authenticator app, or a recovery code'),
  twoFactorRequired: () => new ApiError('Your admin group requires two-factor sign-in: it cannot be turned off'),
  twoFactorAlreadyOn: () => new ApiError('Two-factor sign-in is already on'),
  twoFactorNotOn: () => new ApiError('Two-factor sign-in is not on'),
  loginExpired: () => new ApiError('Login expired, please login again.'),
  invalidToken: () => new ApiError('Invalid token'),
  unknownOperation: () => new ApiError('Unknown operation'),
  noBackgroundMenu: () => new ApiError('No background menu, please contact super administrator!'),
  // member accounts (docs/wire-contract.md#verification-codes, #member-endpoints, #login-and-registration, #sending-codes)
  codeSentRecently: () => new ApiError('Frequent email sending'),
  tooManyCodes: () => new ApiError('Too many verification codes requested, please try again in an hour'),
  wrongCode: (field = 'captcha') => new ApiError('Please enter the correct verification code', [], Code.error, { field }),
  mailUnavailable: () => new ApiError('Mail sending service unavailable'),
  smsUnavailable: () => new ApiError('SMS sending service unavailable'),
  mailSendFailed: () => new ApiError('Mail sending failed, please try again later'),
  smsSendFailed: () => new ApiError('SMS sending failed, please try again later'),
  /** `SMS_DRIVER=outbox`: texts are kept in the back office, so no code could reach the member */
  smsOutboxOnly: () => new ApiError('This site cannot send SMS codes yet, so no code was sent. Please use another way or contact the site administrator'),
  testSmsFailed: (reason: string) => new ApiError('Test SMS sending failed: %s', [reason.slice(0, 300)]),
  testSmsKeptInOutbox: () => new ApiError('The SMS outbox kept the text in the back office without sending it: set SMS_DRIVER to an SMS service to send codes'),
  registrationNeedsCode: () => new ApiError('Registration needs a verification code, which this site cannot send yet. Please contact the site administrator'),
  smsTemplateMissing: () => new ApiError('SMS template does not exist'),
  emailFormat: () => new ApiError('email format error', [], Code.error, { field: 'email' }),
  mobileFormat: () => new ApiError('Mobile format error', [], Code.error, { field: 'mobile' }),
  emailRegistered: () => new ApiError('Email has been registered, please log in directly', [], Code.error, { field: 'email' }),
  emailOccupied: () => new ApiError('The email has been occupied', [], Code.error, { field: 'email' }),
  mobileRegistered: () => new ApiError('Mobile number has been registered, please log in directly', [], Code.error, { field: 'mobile' }),
  mobileOccupied: () => new ApiError('The mobile number has been occupied', [], Code.error, { field: 'mobile' }),
  notYourAddress: () => new ApiError('You can only verify your own account'),
  passwordError: () => new ApiError('Password error', [], Code.error, { field: 'password' }),
  unknownLanguage: () => new ApiError('Choose a language the site speaks: zh-cn or en', [], Code.error, { field: 'lang' }),
  oldPasswordMissing: () => new ApiError('%s cannot be empty', ['Old password'], Code.error, { field: 'oldPassword' }),
  oldPasswordError: () => new ApiError('Old password error', [], Code.error, { field: 'oldPassword' }),
  registrationParameterError: () => new ApiError('Registration parameter error'),
  verificationTypeOff: () => new ApiError('This verification method is not enabled'),
  verifyAccountFirst: () => new ApiError('You need to verify your account before modifying the binding information'),
  fieldInvalid: (message: string, field: string) => new ApiError(message, [], Code.error, { field }),
  outboxReadOnly: () => new ApiError('Sent messages cannot be changed or deleted'),
  outboxSuperOnly: () => new ApiError('Only super administrators can read the SMS outbox', [], Code.noPermission, []),
  // background jobs
  jobRunSuperOnly: () => new ApiError('Only super administrators can run a background job now', [], Code.noPermission, []),
  jobUnknown: () => new ApiError('There is no background job of that name'),
  jobBusy: () => new ApiError('This job was just started or is running: its run is shown here when it ends'),
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
  // data security (docs/wire-contract.md#recycle-bin, #sensitive-data-log)
  noRowsRestored: () => new ApiError('No rows were restore'),
  noRowsRolledBack: () => new ApiError('No rows were rollback'),
  // uploads (docs/wire-contract.md#uploads)
  noFileUploaded: () => new ApiError('No files were uploaded'),
  uploadIncomplete: () => new ApiError('The data of the uploaded file is incomplete!'),
  uploadCutOff: () => new ApiError('The upload was cut off before its end: please send the file again'),
  uploadRateLimited: (perMinute: number, seconds: number) => new ApiError('Too many uploads: at most %d a minute, please retry in %d seconds', [perMinute, seconds]),
  uploadQuotaReached: (quota: string, used: string, reopens: string) =>
    new ApiError('The daily upload limit of %s is reached (%s today): uploads are accepted again from %s', [quota, used, reopens]),
  uploadTypeNotAllowed: () => new ApiError('The type of uploaded file is not allowed!'),
  uploadTooLarge: () => new ApiError('The size of the uploaded file exceeds the allowed range!'),
  invalidImage: () => new ApiError('The uploaded image file is not a valid image'),
  topicFormat: () => new ApiError('Topic format error'),
  driverNotSupported: (driver: string) => new ApiError('Driver %s not supported', [driver]),
  // payment details and payouts
  paymentMethodInvalid: () => new ApiError('Please choose a payment method', [], Code.error, { field: 'payment' }),
  /** Every empty field at once in `data.fields` (a form marks them all); the message and `data.field` name the first. */
  paymentFieldsRequired: (fields: readonly string[], firstTitle: MessageParam) => new ApiError('%s cannot be empty', [firstTitle], Code.error, { field: fields[0], fields }),
  paymentFieldInvalid: (field: string, title: MessageParam) => new ApiError('%s is invalid', [title], Code.error, { field }),
  paymentPasswordWrong: () => new ApiError('Please enter your login password to change your payment details', [], Code.error, { field: 'password' }),
  paymentDetailsMissing: () => new ApiError('Please save your payment details first'),
  payoutAmountInvalid: () => new ApiError('Please enter an amount such as 12.50', [], Code.error, { field: 'amount' }),
  payoutBelowMinimum: (minimum: string) => new ApiError('The least you can withdraw is %s', [minimum], Code.error, { field: 'amount' }),
  payoutAboveBalance: () => new ApiError('The amount is more than your balance', [], Code.error, { field: 'amount' }),
  payoutAlreadyOpen: () => new ApiError('You already have a payout waiting: please wait until it is done'),
  /** `status` is the label of the payout's status */
  payoutWrongStatus: (status: MessageParam) => new ApiError('A payout in status "%s" cannot take this step', [status]),
  payoutSameAdmin: () => new ApiError('Another administrator must mark this payout paid: you approved it'),
  // points exchange
  pointsExchangeClosed: () => new ApiError('Exchanging points for balance is not open'),
  pointsExchangeInvalid: () => new ApiError('Please enter a whole number of points', [], Code.error, { field: 'points' }),
  pointsExchangeBelowMinimum: (minimum: number) => new ApiError('The least you can exchange is %d points', [minimum], Code.error, { field: 'points' }),
  pointsExchangeStep: (step: number, yuan: string) => new ApiError('Points are exchanged in multiples of %d (¥%s each)', [step, yuan], Code.error, { field: 'points' }),
  pointsExchangeAboveHeld: (held: number) => new ApiError('You have only %d points', [held], Code.error, { field: 'points' }),
  pointsExchangeAboveDaily: (limit: number, remaining: number) => new ApiError('You can exchange at most %d points a day: %d left today', [limit, remaining], Code.error, { field: 'points' }),
  /** `data.type` lets the team page say so in place of its list and search. */
  teamNotLed: () => new ApiError('You do not lead a team: only a team leader sees and manages its members', [], Code.error, { type: 'no team' }),
  teamMemberNotYours: () => new ApiError('This member is not in your team', [], Code.error, { field: 'id' }),
  teamFieldInvalid: (field: string, message: string) => new ApiError(message, [], Code.error, { field }),
  teamAlreadyMember: (team: MessageParam) => new ApiError('You are already in the team %s: leave it first to join or create another', [team], Code.error, { field: 'code' }),
  teamCreateClosed: () => new ApiError('Members cannot create teams on this site: join one with its leader\'s invitation code'),
  teamInviteInvalid: () => new ApiError('This invitation code is not valid: it may have been mistyped, replaced or revoked. Ask the team leader for the current one', [], Code.error, { field: 'code' }),
  teamInviteExpired: () => new ApiError('This invitation code has expired: ask the team leader for a new one', [], Code.error, { field: 'code' }),
  teamNone: () => new ApiError('You are not in a team'),
  teamLeaderCannotLeave: () => new ApiError('A leader cannot leave their own team: the operator can name another leader or disable the team'),
  /** The back office names a leader who already belongs to (or leads) another team. */
  teamLeaderElsewhere: (team: MessageParam) => new ApiError('This member is already in the team %s: a leader must be a member of the team they lead', [team], Code.error, { field: 'leader_id' }),
  payoutReadOnly: () => new ApiError('Payouts change only by approval, payment or rejection'),
  creditHoldReadOnly: () => new ApiError('Pending credits change only by their release or a reversal'),
  payoutReferenceRequired: () => new ApiError('Please enter the payment reference', [], Code.error, { field: 'reference' }),
  // surveys and their returns (docs/survey-domain.md#returns-and-callbacks, #signatures)
  surveyUnavailable: () => new ApiError('This survey is not available'),
  surveyNotStarted: () => new ApiError('This survey has not started yet'),
  surveyEnded: () => new ApiError('This survey has ended'),
  surveyQuotaFull: () => new ApiError('This survey has reached its quota'),
  surveyDailyCapReached: () => new ApiError('This survey has reached its limit for today, please come back tomorrow'),
  surveyNotVisible: () => new ApiError('This survey is not open to you'),
  surveyAlreadyTaken: () => new ApiError('You have already taken this survey'),
  unknownRid: () => new ApiError('This survey link is unknown'),
  unknownOutcome: () => new ApiError('Unknown survey outcome'),
  unknownProvider: () => new ApiError('Unknown survey provider'),
  unknownProviderStatus: (status: string) => new ApiError('Unknown survey status "%s"', [status.slice(0, 40)]),
  callbackAddressRefused: () => new ApiError('Calls from this address are not allowed'),
  signatureInvalid: () => new ApiError('The signature of this survey return is invalid'),
  /** `from` and `to` are the statuses' labels */
  cannotReconcile: (from: MessageParam, to: MessageParam) => new ApiError('A participation in status "%s" cannot become "%s"', [from, to]),
  reconcileReasonRequired: () => new ApiError('Please give a reason for the reconciliation'),
  reconcileListEmpty: (limit: number) => new ApiError('Please list at least one RID or provider transaction id (at most %d)', [limit]),
  reconcileListTooLong: (count: number, limit: number) => new ApiError('The list holds %d ids: at most %d can be reconciled at once', [count, limit]),
  /** `id` is the start of the value, as it was listed */
  reconcileIdTooLong: (id: MessageParam, max: number) => new ApiError('"%s" is longer than %d characters, so it is no id: is the id column the right one?', [id, max]),
  reconcileFileQuoteOpen: (line: number) => new ApiError('The file is not valid CSV: the quote opened on line %d is never closed', [line], Code.error, { field: 'file' }),
  reconcileTwoLists: () => new ApiError('Paste the ids or load a file, not both'),
  reconcileModeInvalid: () => new ApiError('Choose what the reconciliation does: reverse, approve or complete_only'),
  reconcileSurveyRequired: () => new ApiError('Choose the survey whose completes the list names', [], Code.error, { field: 'survey_id' }),
  reconcileSurveyInvalid: () => new ApiError('Choose the survey by its number', [], Code.error, { field: 'survey_id' }),
  reconcileSurveyUnknown: (surveyId: number) => new ApiError('Survey #%d does not exist', [surveyId], Code.error, { field: 'survey_id' }),
  /** `complete_only` where no listed id is a participation of the survey: it would only reverse (a wrong file or survey). */
  reconcileNoneMatched: (surveyId: number) => new ApiError('None of the listed ids is a participation of survey #%d, so every complete of it would be reversed: check the file and the survey chosen', [surveyId]),
  reconcileDryRunFirst: () => new ApiError('Run the dry run first: applying takes the plan it showed'),
  reconcilePlanChanged: (before: readonly number[], now: readonly number[]) =>
    new ApiError('The records changed since the dry run: it showed %d to become complete, %d to be reversed, %d unchanged and %d refused, now it is %d, %d, %d and %d. Nothing was changed: run the dry run again', [...before, ...now]),
  reconcilePlanChangedSameCounts: () => new ApiError('The records changed since the dry run (the same counts, but other records or amounts). Nothing was changed: run the dry run again'),
  // why one listed id is refused (each a row of the plan)
  reconcileIdUnknown: () => new ApiError('No participation has this RID or provider transaction id'),
  reconcileIdUnknownInSurvey: (surveyId: number) => new ApiError('No participation of survey #%d has this RID or provider transaction id', [surveyId]),
  reconcileIdOtherSurvey: (surveyId: number) => new ApiError('This RID is a participation of survey #%d, not of the survey chosen', [surveyId]),
  reconcileTxidAmbiguous: (count: number) => new ApiError('This provider transaction id is on %d participations of different surveys: choose the survey', [count]),
  /** `id` is the id listed earlier that names the same participation */
  reconcileListedTwice: (id: MessageParam) => new ApiError('The same participation as "%s", listed before', [id]),
  reconcileBalanceShort: () => new ApiError('The member’s balance cannot cover taking this reward back'),
  reconcilePointsShort: () => new ApiError('The member’s points cannot cover taking these points back'),
  /** An approval that would take a complete beyond the quota; confirming it (`raiseQuota`) raises the quota instead. */
  reconcileQuotaFull: (surveyId: number, completes: number, quota: number) =>
    new ApiError('Survey #%d has reached its quota (%d of %d completes): confirm raising the quota to accept it as complete', [surveyId, completes, quota]),
  entryUrlInvalid: () => new ApiError('The entry URL must be an http or https address', [], Code.error, { field: 'entry_url' }),
  entryUrlNeedsRid: () => new ApiError('The entry URL must contain {rid}', [], Code.error, { field: 'entry_url' }),
  entryUrlUidNotAllowed: () => new ApiError('The entry URL contains {uid}: turn on "Send member ID" or remove it', [], Code.error, { field: 'entry_url' }),
  surveyEndsBeforeStart: () => new ApiError('The end time must be after the start time', [], Code.error, { field: 'end_time' }),
  exitMapInvalid: (code: string) => new ApiError('Exit code "%s" must map to complete, terminate, overquota or security', [code.slice(0, 40)], Code.error, { field: 'exit_map' }),
  invalidAllowlistEntry: (entry: string) => new ApiError('"%s" is not an IP address or range', [entry.slice(0, 60)], Code.error, { field: 'ip_allowlist' }),
  participationReadOnly: () => new ApiError('Participation records change only through reconciliation'),
  securityLogReadOnly: () => new ApiError('The security log is written by the system and cannot be changed'),
  // survey walls and routers (docs/survey-domain.md#walls-and-routers)
  wallTransactionsReadOnly: () => new ApiError('Wall transactions are written by the walls\' callbacks and cannot be changed'),
  unknownWall: () => new ApiError('This survey wall is not available'),
  wallNotReady: () => new ApiError('This survey wall is not set up yet: its address is missing'),
  wallSettingMissing: (setting: MessageParam) => new ApiError('This wall is not set up to take callbacks: its %s is empty', [setting]),
  wallMemberUnknown: (name: string) => new ApiError('No member has the wall id in parameter "%s"', [name]),
  wallTransactionMissing: (name: string) => new ApiError('The transaction id (parameter "%s") is missing or longer than 100 characters', [name]),
  wallAmountMissing: (name: string) => new ApiError('The amount (parameter "%s") is missing', [name]),
  wallAmountNotDecimal: (value: string, name: string) => new ApiError('The amount "%s" (parameter "%s") must be a number with at most two decimals', [value.slice(0, 40), name]),
  wallAmountNotWhole: (value: string, name: string) => new ApiError('The amount "%s" (parameter "%s") must be a whole number of cents or points', [value.slice(0, 40), name]),
  wallAmountNegative: (value: string) => new ApiError('The amount "%s" is below zero, but this wall does not mark reversals by negative amounts', [value.slice(0, 40)]),
  wallCapTransaction: (cap: string) => new ApiError('The amount is above this wall\'s cap of %s per transaction', [cap]),
  wallCapMemberDay: (cap: string, today: string) => new ApiError('The amount would take the member above this wall\'s cap of %s a day (credited today: %s)', [cap, today]),
  wallOtherMember: () => new ApiError('This transaction was recorded for another member'),
  wallRefusedBefore: () => new ApiError('This transaction was refused before, and is refused again'),
  quickTaskFormInvalid: (detail: string) => new ApiError('The form is not valid: %s', [detail.slice(0, 200)], Code.error, { field: 'form' }),
  quickTaskUnavailable: () => new ApiError('This task is not available'),
  quickTaskAlreadySubmitted: () => new ApiError('You have already submitted this task'),
  quickTaskImageNotUploaded: (title: MessageParam, field: string) => new ApiError('%s must be an image uploaded here', [title], Code.error, { field }),
  submissionReadOnly: () => new ApiError('Submissions change only by approval or rejection'),
  reviewReasonRequired: () => new ApiError('Please give a reason for the rejection'),
  // signature recipes (src/server/services/survey/signature-recipe.ts): `part` names the recipe's key, e.g. "expiry.skewSeconds"
  signatureRecipeNotObject: () => new ApiError('The signature recipe must be a JSON object', [], Code.error, { field: 'signature' }),
  signatureRecipeUnknownPart: (part: string) => new ApiError('The signature recipe has an unknown part "%s"', [sameText(part.slice(0, 60))], Code.error, { field: 'signature', part }),
  signatureRecipeMissing: (part: string) => new ApiError('The signature recipe lacks its part "%s"', [sameText(part)], Code.error, { field: 'signature', part }),
  /** `allowed` are the recipe's own words (hmac, sha256, …), shown as they are */
  signatureRecipeChoice: (part: string, allowed: string) => new ApiError('The signature recipe part "%s" must be one of: %s', [sameText(part), sameText(allowed)], Code.error, { field: 'signature', part }),
  signatureRecipeName: (part: string) =>
    new ApiError('The signature recipe part "%s" must be a parameter name: a letter or _ first, then at most 63 letters, digits, _ . - [ or ]', [sameText(part)], Code.error, { field: 'signature', part }),
  signatureRecipeText: (part: string, max: number) => new ApiError('The signature recipe part "%s" must be a text of at most %d characters', [sameText(part), max], Code.error, { field: 'signature', part }),
  signatureRecipeNumber: (part: string, min: number, max: number) =>
    new ApiError('The signature recipe part "%s" must be a whole number from %d to %d', [sameText(part), min, max], Code.error, { field: 'signature', part }),
  signatureRecipeNames: (max: number) => new ApiError('The signature recipe part "names" must list 1 to %d parameter names', [max], Code.error, { field: 'signature', part: 'names' }),
  signatureRecipeTemplate: (max: number) =>
    new ApiError('The signature recipe part "template" must be a text of at most %d characters with at least one {name} placeholder; { and } may only enclose a parameter name', [max], Code.error, { field: 'signature', part: 'template' }),
  /** `usedWith` is the recipe setting the part belongs to, e.g. `text=values` */
  signatureRecipeNotUsed: (part: string, usedWith: string) =>
    new ApiError('The signature recipe part "%s" is used only with %s: leave it out', [sameText(part), sameText(usedWith)], Code.error, { field: 'signature', part }),
  signatureRecipeChain: (min: number, max: number) =>
    new ApiError('The signature recipe part "chain" must list %d to %d keys, each {"in":"secret"} or {"in":"query"|"header","name":…}, the secret among them', [min, max], Code.error, { field: 'signature', part: 'chain' }),
  signatureRecipeAliases: (max: number) =>
    new ApiError('The signature recipe part "signatureAliases" must list 1 to %d parameter names', [max], Code.error, { field: 'signature', part: 'signatureAliases' }),
  signatureRecipeExpiry: () =>
    new ApiError('The signature recipe part "expiry" must be null or an object with in, name, unit and skewSeconds', [], Code.error, { field: 'signature', part: 'expiry' }),
  providerSecretRequired: () => new ApiError('A secret is required for this signature recipe', [], Code.error, { field: 'secret' }),
  reversalRuleInvalid: () => new ApiError('The reversal rule must be {"by":"none"}, {"by":"negative_amount"}, or "status", "flag" or "prefix" with a parameter name and a value', [], Code.error, { field: 'reversal' }),
  unknownPreset: () => new ApiError('Unknown provider preset', [], Code.error, { field: 'preset' }),
  wallUrlInvalid: () => new ApiError('The wall URL must be an http or https address containing {member}', [], Code.error, { field: 'wall_url' }),
  // the provider test tool: problems it names in a pasted return URL
  providerTestUrlMissing: () => new ApiError('Please paste the return URL or callback to check', [], Code.error, { field: 'url' }),
  providerTestUrlInvalid: () => new ApiError('Paste a whole address (https://…) or a path starting with /, without spaces', [], Code.error, { field: 'url' }),
  providerTestOutcomeInvalid: () => new ApiError('Choose the outcome to test: Complete, Screened out, Over quota, Security terminated or Reversed', [], Code.error, { field: 'outcome' }),
  providerTestRidInvalid: () => new ApiError('The test rid may hold at most 64 letters, digits, - and _', [], Code.error, { field: 'rid' }),
  providerTestRidNotTest: () => new ApiError('Only test rids (starting with "test-") can be signed here: signing a return for a real attempt needs the right to reconcile participations', [], Code.error, { field: 'rid' }),
  providerTestNoSecret: () => new ApiError('This provider has no secret yet: enter it and save before testing signatures', [], Code.error, { field: 'secret' }),
  providerTestUnknownPath: (path: string, code: string) => new ApiError('The path "%s" is neither an outcome page (/success, /terminate, /overquota, /security) nor this provider\'s callback address (/api/survey/callback/%s)', [path.slice(0, 120), code]),
  providerTestOtherProvider: (code: string, expected: string) => new ApiError('The callback address names provider "%s", not this provider ("%s")', [code.slice(0, 40), expected]),
  providerTestRidMissing: (name: string) => new ApiError('The rid parameter "%s" is missing', [name]),
  providerTestRidElsewhere: (name: string, found: string) => new ApiError('The rid parameter "%s" is missing; the URL has "%s" instead: change the provider\'s rid parameter or the URL', [name, found]),
  providerTestRidUnknown: (rid: string) => new ApiError('No attempt has the rid "%s": a real return with it would be refused (start a survey to get a real rid)', [rid.slice(0, 64)]),
  providerTestRidIsTest: (rid: string) => new ApiError('The rid "%s" is a test rid: the URL is checked as a real return would be, but a real return with it records nothing', [rid.slice(0, 64)]),
  providerTestSignatureWithheld: () => new ApiError('The expected signature is not shown: this URL names a real attempt, and signing for one needs the right to reconcile participations'),
  providerTestRidOtherProvider: (rid: string) => new ApiError('The rid "%s" belongs to a survey of another provider: a real return with it would be refused', [rid.slice(0, 64)]),
  providerTestStatusMissing: (name: string) => new ApiError('The status parameter "%s" is missing: a callback must say how the attempt ended', [name]),
  providerTestStatusUnknown: (name: string, value: string) => new ApiError('The status "%s" (parameter "%s") is neither in the exit code map nor one of complete, terminate, overquota, security', [value.slice(0, 40), name]),
  providerTestSignatureMissing: (name: string) => new ApiError('The signature parameter "%s" is missing', [name]),
  providerTestOtherAlgorithm: (used: MessageParam, configured: MessageParam) => new ApiError('The signature was made with %s, but this provider is set to %s', [used, configured]),
  providerTestSignedWithHost: (text: string) => new ApiError('The signature covers the address with its scheme and host; only the path and query are signed: %s', [text.slice(0, 300)]),
  providerTestSignedQueryOnly: (text: string) => new ApiError('The signature covers the query alone; the path is signed too: %s', [text.slice(0, 300)]),
  providerTestSignedSorted: (text: string) => new ApiError('The signature covers the parameters sorted by name; they are signed in the order sent: %s', [text.slice(0, 300)]),
  providerTestSignedDecoded: (text: string) => new ApiError('The signature covers the decoded query; the query is signed exactly as sent, still encoded: %s', [text.slice(0, 300)]),
  providerTestSignatureShape: (length: number, algorithm: MessageParam, expected: number) => new ApiError('The signature has %d characters, but %s gives %d lowercase hexadecimal characters', [length, algorithm, expected]),
  providerTestSignatureMismatch: (text: string) => new ApiError('The signature does not match. The signed text is %s: check the secret, and that no parameter was changed or added after signing', [text.slice(0, 300)]),
  // the provider test tool as a hash calculator (src/server/services/survey/provider-test.ts): walls, headers and bodies, recipes
  providerTestMemberInvalid: () => new ApiError('The test member ID may hold at most 64 letters, digits, - and _', [], Code.error, { field: 'member' }),
  providerTestMemberNotTest: () => new ApiError('Only test member IDs (starting with "test-") can be signed here: signing a callback for a real member needs the right to reconcile participations', [], Code.error, { field: 'member' }),
  providerTestAmountInvalid: () => new ApiError('The amount must be a number such as 1.25 or 125', [], Code.error, { field: 'amount' }),
  providerTestTransactionInvalid: () => new ApiError('The transaction ID may hold at most 64 letters, digits, - _ . and :', [], Code.error, { field: 'transaction' }),
  providerTestNoReversal: () => new ApiError('This provider never reverses: its reversal rule is "none"', [], Code.error, { field: 'outcome' }),
  providerTestReversalNeedsAmount: () => new ApiError('This provider reverses by a negative amount, but has no amount parameter', [], Code.error, { field: 'outcome' }),
  providerTestRecipeUnreadable: () => new ApiError('This provider\'s signature recipe cannot be read: open the provider, check the recipe and save it'),
  providerTestHeaderInvalid: (line: string) => new ApiError('Each header line must be "Name: value": %s', [sameText(line.slice(0, 120))], Code.error, { field: 'headers' }),
  providerTestBodyTooLong: (max: number) => new ApiError('The body may hold at most %d characters', [max], Code.error, { field: 'body' }),
  providerTestMethodInvalid: () => new ApiError('The method must be GET or POST', [], Code.error, { field: 'method' }),
  providerTestSendTestOnly: () => new ApiError('A test callback is sent with test IDs only: leave the RID or member ID blank, or give one starting with "test-"'),
  providerTestSendFailed: () => new ApiError('The test callback could not be sent'),
  providerTestSignatureHeaderMissing: (name: string) => new ApiError('The signature header "%s" is missing', [sameText(name)]),
  providerTestSignatureFieldMissing: (name: string) => new ApiError('The signature field "%s" is missing from the body', [sameText(name)]),
  providerTestSignatureElsewhere: (name: string, found: MessageParam, expected: MessageParam) => new ApiError('The signature "%s" was sent in %s, but this provider expects it in %s', [sameText(name), found, expected]),
  providerTestTimestampMissing: (name: string) => new ApiError('The timestamp "%s" is missing or not a number: this provider\'s requests expire', [sameText(name)]),
  providerTestTimestampExpired: (name: string, seconds: number, allowed: number) => new ApiError('The timestamp "%s" is %d seconds away from our clock; this provider allows %d', [sameText(name), seconds, allowed]),
  providerTestTimeUnreadable: (name: string) => new ApiError('The time "%s" is missing or not written as the recipe says (an RFC 3339 date and time such as 2026-01-01T00:05:00.000Z): this provider\'s requests expire', [sameText(name)]),
  providerTestDeadlinePassed: (name: string, seconds: number) => new ApiError('The deadline "%s" passed %d seconds ago', [sameText(name), seconds]),
  providerTestDeadlineTooFar: (name: string, seconds: number, allowed: number) => new ApiError('The deadline "%s" lies %d seconds ahead; this provider allows at most %d', [sameText(name), seconds, allowed]),
  providerTestChainKeyMissing: (name: string) => new ApiError('The signature is keyed in turn by "%s", which the request does not carry', [sameText(name)]),
  providerTestOtherEncoding: (used: MessageParam, configured: MessageParam) => new ApiError('The signature is written in %s, but this provider is set to %s', [used, configured]),
  providerTestSignedOtherText: (used: MessageParam, configured: MessageParam, text: string) => new ApiError('The signature covers %s, but this provider signs %s: %s', [used, configured, sameText(text.slice(0, 300))]),
  providerTestSignedOtherOrigin: (used: string, ours: string) =>
    new ApiError('The signature covers the full URL starting %s, but requests reach us as %s: set PUBLIC_URL to the address the provider calls, or give the provider that address', [sameText(used.slice(0, 120)), sameText(ours.slice(0, 120))]),
  providerTestSignedOtherCut: (used: MessageParam, configured: MessageParam) => new ApiError('The signature was made with %s, but this provider\'s recipe has %s', [used, configured]),
  providerTestSignedOtherRecipe: (recipe: MessageParam) => new ApiError('The signature matches another recipe: %s. If the provider\'s guide says so, change this provider\'s recipe to it', [recipe]),
  providerTestSignatureLength: (length: number, algorithm: MessageParam, encoding: MessageParam, expected: number) => new ApiError('The signature has %d characters, but %s written in %s has %d', [length, algorithm, encoding, expected]),
  providerTestOriginNotOurs: (pasted: string, ours: string) =>
    new ApiError('The address starts %s, but this site\'s public address is %s: a provider that signs the full URL must call that address', [sameText(pasted.slice(0, 120)), sameText(ours.slice(0, 120))]),
  providerTestRedirectIgnores: () => new ApiError('A return page receives only the address: the headers and body are not used'),
  providerTestCreditsOnCallback: () => new ApiError('This provider credits on its server callback only: a return page shows the outcome and records nothing'),
  providerTestRedirectUnsigned: () => new ApiError('The return URL is not signed: this provider\'s recipe puts the signature where a browser\'s return cannot carry it (a header or the body); set it to credit on its server callback only'),
  providerTestMemberMissing: (name: string) => new ApiError('The member parameter "%s" is missing', [sameText(name)]),
  providerTestTransactionMissing: (name: string) => new ApiError('The transaction parameter "%s" is missing: a wall\'s callback must name its transaction', [sameText(name)]),
  providerTestAmountMissing: (name: string) => new ApiError('The amount parameter "%s" is missing', [sameText(name)]),
  providerTestUnsigned: () => new ApiError('This provider\'s recipe checks no signature: anyone who knows the address can report outcomes'),
  providerTestMemberIsTest: (member: string) => new ApiError('The member ID "%s" is a test ID: the request is checked as a real one would be, but a callback with it records and credits nothing', [sameText(member.slice(0, 64))]),
  providerTestSignatureWithheldMember: () => new ApiError('The expected signature is not shown: this request names a member ID that is not a test ID, and signing for a real member needs the right to reconcile participations'),
  providerTestMarkedTest: (name: string, value: string) => new ApiError('The request is marked as test traffic (%s=%s): it is checked and answered, never recorded', [sameText(name), sameText(value.slice(0, 40))]),
  // request guards (docs/wire-contract.md#get-throttle, #ip-blacklist): sent as bare `{code, msg}` / `{msg}` bodies, not envelopes
  tooManyRequests: (seconds: number) => new ApiError('Please do not request frequently. Try again in %d seconds.', [seconds]),
  ipBlocked: () => new ApiError('No permission request'),
});

/** The stable id of an API error: the name of the factory in `errors` that builds it. */
export type ErrorId = keyof typeof errors;

/** A success with a message key, for actions that answer more than data. */
export class Success {
  constructor(readonly data: unknown = null, readonly msg = '', readonly params: readonly MessageParam[] = [], readonly code: number = Code.success) {}
}
