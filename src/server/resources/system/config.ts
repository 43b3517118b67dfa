import type { RequestContext, ResourceHooks } from '../../app-context.js';
import { DICTIONARY_TYPES } from '../../../contract/config-values.js';
import { errors, Success } from '../../errors.js';
import { dictionaryText, initialValue, keyValueItem, saveSettings, sendTestMail, settingsIndex, storedItems } from '../../services/site-settings.js';
import { addedAnswer, addRow } from '../operations/add.js';
import { channelsHealth } from '../../services/code-channels.js';
import { sendTestSms } from '../../services/code-delivery.js';

/**
 * `routine.Config` (docs/wire-contract.md#site-configuration): `index` answers the items grouped as the config screen shows them, `edit` takes
 * `{<name>: <value>}` for any subset of items, `sendTestMail` tries unsaved mail settings (the rules are
 * in services/site-settings.ts), `sendTestSms {mobile}` the SMS driver; `index` also answers each code channel's
 * health (`channels`, services/code-channels.ts). Adding items and deleting the deletable ones use the generic actions.
 */

/**
 * `POST add`: a new config item. BuildAdmin's form sends the chosen validation rules as a list; they are
 * stored comma-joined, as BuildAdmin stores them.
 */
async function add(ctx: RequestContext) {
  const definition = ctx.controller.resource;
  if (ctx.method !== 'POST' || !definition) throw errors.parameterError();
  const rule = ctx.body.rule;
  const joined = Array.isArray(rule) && rule.every((item) => typeof item === 'string');
  const body = joined ? { ...ctx.body, rule: rule.filter((item) => item !== '').join(',') } : ctx.body;
  return addedAnswer(definition, await addRow(ctx, definition, configHooks, body));
}

/** The admin log masks the values of password items by their type, whatever their names. */
async function maskPasswordItems(ctx: RequestContext): Promise<void> {
  ctx.logSecrets = (await storedItems(ctx.app.db)).filter((item) => item.type === 'password').map((item) => item.name);
}

export const configHooks: ResourceHooks = {
  actions: {
    index: async (ctx) => ({ ...(await settingsIndex(ctx.app.db, ctx.app.settings, ctx.t)), channels: await channelsHealth(ctx.app) }),
    add,
    edit: async (ctx) => {
      if (ctx.method !== 'POST') return null;
      await maskPasswordItems(ctx);
      await saveSettings(ctx.app, ctx.body);
      return new Success(null, 'The current page configuration item was updated successfully');
    },
    sendTestMail: async (ctx) => {
      if (ctx.method !== 'POST') throw errors.parameterError();
      await maskPasswordItems(ctx);
      await sendTestMail(ctx.app, ctx.body, ctx.t);
      return new Success(null, 'Test mail sent successfully~');
    },
    sendTestSms: async (ctx) => {
      if (ctx.method !== 'POST') throw errors.parameterError();
      await sendTestSms(ctx.app, ctx.body, ctx.lang);
      return new Success(null, 'Test SMS sent successfully');
    },
  },

  async beforeWrite(_operator, write) {
    const values = write.values;
    const groups = keyValueItem(await storedItems(write.trx), 'config_group').map((row) => row.key);
    if (!groups.includes(String(values.group))) throw errors.validation({ field: 'group', message: 'Unknown config group: %s', params: [String(values.group)] });
    values.content = DICTIONARY_TYPES.has(String(values.type)) ? dictionaryText(values.content) : null;
    values.value = initialValue(values);
    values.allow_del = 1;
  },

  async beforeDelete(_operator, remove) {
    // Items the system was installed with stay; only items added later can go.
    return remove.rows.filter((row) => Number(row.allow_del) === 1);
  },

  async afterWrite(operator) {
    operator.app.config.invalidate();
  },

  async afterDelete(operator) {
    operator.app.config.invalidate();
  },
};
