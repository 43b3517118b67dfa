import { useCanAccess, useRecordContext, useResourceContext } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { GeneratedTable } from './GeneratedTable.js';
import { RecordDetailsButton, type DetailRenderers } from './RecordDetails.js';
import { BulkLogActionButton, LogActionButton, type LogAction } from './system/security-log.js';
import { BulkTextActionButton, TextActionRowButton, type TextAction } from './TextActionButton.js';

type Row = Record<string, unknown>;

/** A review step: its action, the rows it applies to, and whether it is offered on the selection too. */
interface ReviewStep<A> {
  action: A;
  when: (record: Row) => boolean;
  bulk?: boolean;
}

function ConfirmedRowButton({ step }: { step: ReviewStep<LogAction> }) {
  const record = useRecordContext();
  return record && step.when(record) ? <LogActionButton action={step.action} /> : null;
}

/** One bulk button, shown only with its node. */
function BulkButton({ step }: { step: ReviewStep<LogAction> | ReviewStep<TextAction> }) {
  const resource = useResourceContext() ?? '';
  const { canAccess } = useCanAccess({ resource, action: step.action.name });
  if (canAccess !== true) return null;
  return 'field' in step.action ? <BulkTextActionButton action={step.action} /> : <BulkLogActionButton action={step.action} />;
}

/**
 * The generated table of records that are reviewed rather than edited (task submissions, payouts): a
 * confirmed step and steps that ask for a text, on the rows whose status allows them, each behind its node;
 * "Details" shows the whole row (what is being decided on) with the same steps beside Close.
 */
export function ReviewTable({ definition, confirmed, texts, details }: { definition: ResourceDefinition; confirmed: ReviewStep<LogAction>; texts: ReviewStep<TextAction>[]; details?: DetailRenderers }) {
  const bulk = [confirmed, ...texts].filter((step) => step.bulk !== false);
  const steps = (
    <>
      <ConfirmedRowButton step={confirmed} />
      {texts.map((step) => (
        <TextActionRowButton key={step.action.name} action={step.action} when={step.when} />
      ))}
    </>
  );
  return (
    <GeneratedTable
      definition={definition}
      editable={false}
      rowActions={
        <>
          <RecordDetailsButton definition={definition} renderers={details} actions={steps} />
          {steps}
        </>
      }
      bulkActions={bulk.map((step) => <BulkButton key={step.action.name} step={step} />)}
    />
  );
}
