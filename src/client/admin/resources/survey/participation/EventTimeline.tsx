import { Box, Stack, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { FieldDefinition, ResourceDefinition } from '../../../../../schema/definition.js';
import { optionLabel } from '../../../fields/enum-options.js';
import { ValueChip } from '../../../fields/TagField.js';
import { textOf } from '../../../fields/TextValueField.js';
import { formatDateTime } from '../../../fields/value-format.js';
import { useSchemaTranslate } from '../../schema-i18n.js';

/** One change of a participation's status, as the list rows carry it. */
interface ParticipationEvent {
  from_status: string;
  to_status: string;
  source: string;
  admin_id: number | null;
  admin_name: string;
  payload: Record<string, unknown> | null;
  ip: string;
  create_time: number | null;
}

/** Read by screen readers only: the word the arrow between two statuses stands for. */
const SCREEN_READER_ONLY = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/** The details a return or a reconciliation records, in the order they read best. */
const PAYLOAD_KEYS = ['reason', 'action', 'mode', 'provider_txid', 'quota', 'reported', 'speeder', 'held', 'available_at', 'pending_cancelled', 'signature', 'query'] as const;

/**
 * A participation's history, oldest first: when, from → to (the status chips of the list), through what
 * (the status source's chip), by which administrator, from which address, and what was recorded with it.
 * Every label comes from the participation's own `status` and `source` fields.
 */
export function EventTimeline({ definition }: { definition: ResourceDefinition }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const status = definition.fields.find((field) => field.name === 'status') as FieldDefinition;
  const source = definition.fields.find((field) => field.name === 'source') as FieldDefinition;
  const events = (Array.isArray(record?.events) ? record.events : []) as ParticipationEvent[];
  if (events.length === 0) return <Typography variant="body2">{translate('survey.history.empty')}</Typography>;

  const payloadText = (key: (typeof PAYLOAD_KEYS)[number], value: unknown): string => {
    switch (key) {
      case 'reported':
        return t(optionLabel(status, value));
      case 'speeder':
      case 'held':
      case 'pending_cancelled':
        return translate(value === true ? 'ra.boolean.true' : 'ra.boolean.false');
      case 'available_at':
        // A credit held for the hold period: when it reaches the member's balance.
        return formatDateTime(value);
      case 'action':
        return translate(`survey.history.actions.${String(value)}`, { _: textOf(value) });
      case 'mode':
        return translate(`survey.history.modes.${String(value)}`, { _: textOf(value) });
      case 'signature':
        return translate(`survey.history.signatures.${String(value)}`, { _: textOf(value) });
      case 'quota': {
        // The survey's quota an approval raised to fit its complete.
        const raise = (value ?? {}) as { from?: unknown; to?: unknown };
        return `${textOf(raise.from)} → ${textOf(raise.to)}`;
      }
      default:
        return textOf(value);
    }
  };

  return (
    <Box component="ol" aria-label={translate('survey.history.title')} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
      {events.map((event, index) => {
        const payload = event.payload ?? {};
        return (
          <Box component="li" key={index} sx={{ borderLeft: 2, borderColor: 'divider', pl: 1.5 }}>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
              <Typography component="time" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                {formatDateTime(event.create_time)}
              </Typography>
              {event.from_status && <ValueChip field={status} value={event.from_status} />}
              {event.from_status && (
                <Typography component="span" variant="body2">
                  <span aria-hidden="true">→</span>
                  <Box component="span" sx={SCREEN_READER_ONLY}>
                    {translate('survey.history.to')}
                  </Box>
                </Typography>
              )}
              <ValueChip field={status} value={event.to_status} />
              {event.source && <ValueChip field={source} value={event.source} />}
              {event.admin_id !== null && event.admin_id !== 0 && (
                <Typography component="span" variant="body2">
                  {translate('survey.history.by', { name: event.admin_name || `#${event.admin_id}` })}
                </Typography>
              )}
              {event.ip && (
                <Typography component="span" variant="body2" color="text.secondary">
                  {translate('survey.history.ip', { ip: event.ip })}
                </Typography>
              )}
            </Stack>
            {PAYLOAD_KEYS.filter((key) => payload[key] !== undefined && payload[key] !== '').map((key) => (
              <Typography key={key} variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {translate(`survey.history.payload.${key}`)}: {payloadText(key, payload[key])}
              </Typography>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
