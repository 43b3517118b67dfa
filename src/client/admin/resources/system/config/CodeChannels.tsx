import SmsIcon from '@mui/icons-material/Sms';
import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { type ReactNode } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { CodeChannelHealth, CodeChannelState } from '../../../../../contract/code-channels.js';
import { formatDateTime } from '../../../../format/datetime.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { errorMessageOf } from '../../error-report.js';
import { serverFieldErrors } from '../../server-errors.js';
import { TestSendButton, type TestSendOutcome } from './TestSendButton.js';

/** Each state's chip colour: working green, failing red, the rest a warning (nothing is offered then). */
const STATE_COLOURS: Record<CodeChannelState, 'success' | 'error' | 'warning'> = {
  working: 'success',
  failing: 'error',
  unchecked: 'warning',
  notSetUp: 'warning',
  outbox: 'warning',
};

/**
 * "Send test SMS" (`routine.Config/sendTestSms {mobile}`, docs/wire-contract.md#code-channels): the registration text with
 * a sample code to a number the administrator types; the outcome becomes the SMS channel's health.
 */
function TestSmsButton({ resource, onTested }: { resource: string; onTested(): void }) {
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();

  const send = async (mobile: string): Promise<TestSendOutcome> => {
    try {
      await dataProvider.action(resource, 'sendTestSms', { data: { mobile } });
      notify('config.channels.testSms.sent', { type: 'success', messageArgs: { mobile } });
    } catch (failure) {
      const onField = serverFieldErrors(failure, new Set(['mobile']))?.mobile;
      if (onField) return { stay: true, error: onField };
      notify(errorMessageOf(failure), { type: 'error' });
    }
    return undefined;
  };

  return (
    <TestSendButton
      id="test-sms-title"
      icon={<SmsIcon />}
      size="small"
      addressType="tel"
      texts={{ button: translate('config.channels.testSms.button'), title: translate('config.channels.testSms.title'), explain: translate('config.channels.testSms.explain'), address: translate('config.channels.testSms.mobile') }}
      send={send}
      onTested={onTested}
    />
  );
}

/** One channel: its name, its state, when it was last checked and by what, why it failed, what to do. */
function ChannelRow({ health, action }: { health: CodeChannelHealth; action?: ReactNode }) {
  const translate = useTranslate();
  const id = `code-channel-${health.channel}`;
  const checked = health.checkedTime
    ? translate(`config.channels.checked.${health.checkedBy === 'test' ? 'test' : 'code'}`, { time: formatDateTime(health.checkedTime) })
    : translate('config.channels.neverChecked');
  return (
    <Box component="li" aria-labelledby={id} sx={{ listStyle: 'none', py: 1, display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1.5, rowGap: 0.5 }}>
      <Typography id={id} component="span" sx={{ fontWeight: 600, minWidth: 48 }}>
        {translate(`config.channels.name.${health.channel}`)}
      </Typography>
      <Chip size="small" color={STATE_COLOURS[health.state]} label={translate(`config.channels.state.${health.state}`)} />
      <Typography component="span" variant="body2" color="text.secondary">
        {checked}
      </Typography>
      {action}
      <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%', overflowWrap: 'anywhere' }}>
        {translate(`config.channels.help.${health.channel}.${health.state}`)}
        {health.state === 'failing' && health.detail ? ` ${translate('config.channels.reason', { reason: health.detail })}` : ''}
      </Typography>
    </Box>
  );
}

/**
 * Above the settings' tabs: whether codes can reach members by mail and by SMS (docs/wire-contract.md#code-channels),
 * each channel offered to members only while it works. Mail is tested from the Mail tab; SMS here.
 */
export function CodeChannels({ channels, resource, canTestSms, onTested }: { channels: CodeChannelHealth[]; resource: string; canTestSms: boolean; onTested(): void }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="code-channels-title">
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Typography id="code-channels-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {translate('config.channels.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('config.channels.explain')}
        </Typography>
        <Stack component="ul" sx={{ m: 0, p: 0 }} data-testid="code-channels">
          {channels.map((health) => (
            <ChannelRow
              key={health.channel}
              health={health}
              action={health.channel === 'mobile' && canTestSms && health.state !== 'notSetUp' ? <TestSmsButton resource={resource} onTested={onTested} /> : undefined}
            />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
