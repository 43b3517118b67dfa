import { lazy, Suspense, type ReactNode } from 'react';
import { Loading } from 'react-admin';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../../shell/RouteMessages.js';
import { GeneratedList } from '../../GeneratedList.js';
import { GeneratedTable } from '../../GeneratedTable.js';
import type { InputOverrides } from '../../GeneratedInputs.js';
import type { ResourceDescriptor } from '../../index.js';
import { lazyComponent } from '../../../../components/lazy-component.js';
import { useSchemaTranslate } from '../../schema-i18n.js';

/** The test-return dialog's code loads with the providers' list, not with every other list. */
const TestReturnButton = lazyComponent(async () => (await import('./TestReturnButton.js')).TestReturnButton);
/** The form's own inputs load with the add or edit dialog that draws them. */
const PresetInput = lazy(async () => ({ default: (await import('./PresetInput.js')).PresetInput }));
const RecipeInput = lazy(async () => ({ default: (await import('./recipe-inputs.js')).RecipeInput }));
const ReversalInput = lazy(async () => ({ default: (await import('./recipe-inputs.js')).ReversalInput }));

/** Providers: the generated list, with "Test returns" on each row for admins holding its node. */
export function providerOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  const ProviderList = () => (
    <RouteMessages names={['admin/survey']}>
      <GeneratedList definition={definition}>
        <GeneratedTable definition={definition} rowActions={<TestReturnButton definition={definition} />} />
      </GeneratedList>
    </RouteMessages>
  );
  return { list: ProviderList };
}

function WithMessages({ children }: { children: ReactNode }) {
  return (
    <RouteMessages names={['admin/survey']}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </RouteMessages>
  );
}

/** A JSON column's structured editor, labelled with the column's title. */
function ColumnInput({ definition, name }: { definition: ResourceDefinition; name: 'signature' | 'reversal' }) {
  const t = useSchemaTranslate();
  const field = definition.fields.find((item) => item.name === name);
  const label = field ? t(field.title) : undefined;
  return <WithMessages>{name === 'signature' ? <RecipeInput label={label} /> : <ReversalInput label={label} />}</WithMessages>;
}

/**
 * The provider's add and edit dialogs: the generated inputs, with the preset choice (which fills the form
 * and shows the addresses to hand to the provider) and structured editors of the signature recipe and the
 * reversal rule.
 */
export function providerInputs(definition: ResourceDefinition): InputOverrides {
  return {
    preset: <WithMessages><PresetInput definition={definition} /></WithMessages>,
    signature: <ColumnInput definition={definition} name="signature" />,
    reversal: <ColumnInput definition={definition} name="reversal" />,
  };
}
