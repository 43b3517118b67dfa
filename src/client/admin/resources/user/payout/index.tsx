import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutline';
import PaidIcon from '@mui/icons-material/Paid';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../RouteMessages.js';
import { GeneratedList } from '../../GeneratedList.js';
import { ReviewTable } from '../../ReviewTable.js';
import type { ResourceDescriptor } from '../../index.js';
import type { LogAction } from '../../system/security-log.js';
import type { TextAction } from '../../TextActionButton.js';

type Row = Record<string, unknown>;

const APPROVE: LogAction = {
  name: 'approve',
  icon: <CheckCircleIcon />,
  texts: {
    label: ['payout.approve', 'Approve'],
    confirm: ['payout.approveConfirm', 'Approve %{count} payout(s)? Another administrator then marks them paid.'],
    done: ['payout.approved', 'Approved'],
  },
};

const PAY: TextAction = {
  name: 'pay',
  field: 'reference',
  icon: <PaidIcon />,
  label: ['payout.pay', 'Mark paid'],
  input: ['payout.reference', 'Payment reference'],
  done: ['payout.paid', 'Marked paid'],
};

const REJECT: TextAction = {
  name: 'reject',
  field: 'reason',
  icon: <BlockIcon />,
  color: 'error',
  label: ['payout.reject', 'Reject'],
  input: ['payout.reason', 'Reason shown to the member'],
  done: ['payout.rejected', 'Rejected, the amount is back on the balance'],
};

const isPending = (record: Row) => record.status === 'pending';
const isApproved = (record: Row) => record.status === 'approved';
const isOpen = (record: Row) => isPending(record) || isApproved(record);

/** Payouts: the generated list with the review steps, each behind its own node (maker-checker on the server). */
export function payoutOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const PayoutList = () => (
    <RouteMessages names={['admin/payout']}>
      <GeneratedList definition={definition} creatable={false} editable={false}>
        <ReviewTable
          definition={definition}
          confirmed={{ action: APPROVE, when: isPending }}
          texts={[
            { action: PAY, when: isApproved, bulk: false },
            { action: REJECT, when: isOpen },
          ]}
        />
      </GeneratedList>
    </RouteMessages>
  );
  return { list: PayoutList };
}
