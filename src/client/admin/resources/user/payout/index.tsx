import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutline';
import PaidIcon from '@mui/icons-material/Paid';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { ReviewTable } from '../../ReviewTable.js';
import type { ResourceDescriptor } from '../../index.js';
import type { LogAction } from '../../system/security-log.js';
import type { TextAction } from '../../TextActionButton.js';
import { readOnlyListOverride } from '../../read-only-list.js';

type Row = Record<string, unknown>;

const APPROVE: LogAction = {
  name: 'approve',
  icon: <CheckCircleIcon />,
  texts: {
    label: 'payout.approve',
    confirm: 'payout.approveConfirm',
    done: 'payout.approved',
  },
};

const PAY: TextAction = {
  name: 'pay',
  field: 'reference',
  icon: <PaidIcon />,
  label: 'payout.pay',
  input: 'payout.reference',
  done: 'payout.paid',
};

const REJECT: TextAction = {
  name: 'reject',
  field: 'reason',
  icon: <BlockIcon />,
  color: 'error',
  label: 'payout.reject',
  input: 'payout.reason',
  done: 'payout.rejected',
};

/** Whether the server offers this administrator the step on the row (`actions`: its node, the status, who approved it). */
const offers = (step: string) => (record: Row) => Array.isArray(record.actions) && record.actions.includes(step);

/** Payouts: the generated list with the review steps each row offers the current administrator (maker-checker on the server). */
export function payoutOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  return readOnlyListOverride(definition, {
    messages: ['admin/payout'],
    table: (
      <ReviewTable
        definition={definition}
        confirmed={{ action: APPROVE, when: offers('approve') }}
        texts={[
          { action: PAY, when: offers('pay'), bulk: false },
          { action: REJECT, when: offers('reject') },
        ]}
      />
    ),
  });
}
