import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutline';
import { useCanAccess, useRecordContext, useResourceContext } from 'react-admin';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../RouteMessages.js';
import { GeneratedList } from '../../GeneratedList.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { ResourceDescriptor } from '../../index.js';
import { BulkLogActionButton, LogActionButton, type LogAction } from '../../system/security-log.js';
import { BulkTextActionButton, TextActionRowButton, type TextAction } from '../../TextActionButton.js';

const APPROVE: LogAction = {
  name: 'approve',
  icon: <CheckCircleIcon />,
  texts: {
    label: ['survey.review.approve', 'Approve'],
    confirm: ['survey.review.approveConfirm', 'Approve %{count} submission(s) and credit the reward?'],
    done: ['survey.review.approved', 'Approved'],
  },
};

export const REJECT: TextAction = {
  name: 'reject',
  field: 'reason',
  icon: <BlockIcon />,
  color: 'error',
  label: ['survey.review.reject', 'Reject'],
  input: ['survey.review.reason', 'Reason shown to the member'],
  done: ['survey.review.rejected', 'Rejected'],
};

const pending = (record: Record<string, unknown>) => record.status === 'pending';

/** Approve is offered on pending rows only. */
function ApproveRowButton() {
  const record = useRecordContext();
  return record?.status === 'pending' ? <LogActionButton action={APPROVE} /> : null;
}

function SubmissionTable({ definition }: { definition: ResourceDefinition }) {
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
          <TextActionRowButton action={REJECT} when={pending} />
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

/** Quick task submissions: the generated list with approve (credit) and reject (with a reason). */
export function quickTaskSubmissionOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const QuickTaskSubmissionList = () => (
    <RouteMessages names={['admin/survey']}>
      <GeneratedList definition={definition} creatable={false} editable={false}>
        <SubmissionTable definition={definition} />
      </GeneratedList>
    </RouteMessages>
  );
  return { list: QuickTaskSubmissionList };
}
