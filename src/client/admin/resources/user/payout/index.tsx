import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutline';
import PaidIcon from '@mui/icons-material/Paid';
import { useCanAccess, useRecordContext, useResourceContext } from 'react-admin';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../RouteMessages.js';
import { GeneratedList } from '../../GeneratedList.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { ResourceDescriptor } from '../../index.js';
import { BulkLogActionButton, LogActionButton, type LogAction } from '../../system/security-log.js';
import { BulkTextActionButton, TextActionRowButton, type TextAction } from '../../TextActionButton.js';

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

function ApproveRowButton() {
  const record = useRecordContext();
  return record && isPending(record) ? <LogActionButton action={APPROVE} /> : null;
}

function PayoutTable({ definition }: { definition: ResourceDefinition }) {
  const resource = useResourceContext() ?? '';
  const { canAccess: canApprove } = useCanAccess({ resource, action: 'approve' });
  const { canAccess: canReject } = useCanAccess({ resource, action: 'reject' });
  return (
    <GeneratedTable
      definition={definition}
      editable={false}
      rowActions={
        <>
          <ApproveRowButton />
          <TextActionRowButton action={PAY} when={isApproved} />
          <TextActionRowButton action={REJECT} when={isOpen} />
        </>
      }
      bulkActions={
        canApprove === true || canReject === true ? (
          <>
            {canApprove === true && <BulkLogActionButton action={APPROVE} />}
            {canReject === true && <BulkTextActionButton action={REJECT} />}
          </>
        ) : undefined
      }
    />
  );
}

/** Payouts: the generated list with the review steps, each behind its own node (maker-checker on the server). */
export function payoutOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const PayoutList = () => (
    <RouteMessages names={['admin/payout']}>
      <GeneratedList definition={definition} creatable={false} editable={false}>
        <PayoutTable definition={definition} />
      </GeneratedList>
    </RouteMessages>
  );
  return { list: PayoutList };
}
