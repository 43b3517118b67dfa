import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutline';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { ReviewTable } from '../../ReviewTable.js';
import type { ResourceDescriptor } from '../../index.js';
import type { LogAction } from '../../system/security-log.js';
import type { TextAction } from '../../TextActionButton.js';
import { readOnlyListOverride } from '../../read-only-list.js';
import { lazyComponent } from '../../../../components/lazy-component.js';

/** The answers (with the member form's field types) load when a submission's details open. */
const AnswersField = lazyComponent(async () => (await import('./AnswersField.js')).AnswersField);

const APPROVE: LogAction = {
  name: 'approve',
  icon: <CheckCircleIcon />,
  texts: {
    label: 'survey.review.approve',
    confirm: 'survey.review.approveConfirm',
    done: 'survey.review.approved',
  },
};

const REJECT: TextAction = {
  name: 'reject',
  field: 'reason',
  icon: <BlockIcon />,
  color: 'error',
  label: 'survey.review.reject',
  input: 'survey.review.reason',
  done: 'survey.review.rejected',
};

const pending = (record: Record<string, unknown>) => record.status === 'pending';

/** Quick task submissions: the generated list with approve (credit) and reject (with a reason); details show the answers. */
export function quickTaskSubmissionOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const details = { answers: <AnswersField /> };
  return readOnlyListOverride(definition, {
    messages: ['admin/survey'],
    table: <ReviewTable definition={definition} confirmed={{ action: APPROVE, when: pending }} texts={[{ action: REJECT, when: pending }]} details={details} />,
  });
}
