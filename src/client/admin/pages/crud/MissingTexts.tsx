import { Alert, AlertTitle, Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { LANGUAGES } from '../../../../contract/headers.js';
import type { TextGap } from './crud-api.js';

/** Where a text sits, as the designer names it: "Module title", "Field sku: label", "Field state: option draft". */
function placeOf(at: readonly string[], translate: (key: string, options?: Record<string, unknown>) => string): string {
  const [head, name, part, option] = at;
  if (head === 'title') return translate('crud.texts.title');
  if (head === 'menu') return translate(name === 'parent' ? 'crud.texts.menuParent' : 'crud.texts.menu');
  if (part === 'options') return translate('crud.texts.option', { name, value: option });
  return translate(part === 'help' ? 'crud.texts.help' : 'crud.texts.label', { name });
}

/**
 * The design's texts that have nothing in a language (as `npm run gen` lists a schema's): one note per
 * language, each text with where it sits and what shows there instead, so the admin sees what to fill in.
 */
export function MissingTexts({ gaps }: { gaps: readonly TextGap[] }) {
  const translate = useTranslate();
  return (
    <>
      {LANGUAGES.map((language) => {
        const missing = gaps.filter((gap) => gap.language === language);
        if (missing.length === 0) return null;
        return (
          <Alert key={language} severity="info" role="status" data-testid={`missing-texts-${language}`}>
            <AlertTitle>{translate('crud.texts.missing', { language: translate(`crud.texts.languages.${language}`), smart_count: missing.length })}</AlertTitle>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {missing.map((gap) => (
                <li key={gap.at.join('/')}>{translate('crud.texts.shown', { place: placeOf(gap.at, translate), text: gap.shown })}</li>
              ))}
            </Box>
          </Alert>
        );
      })}
    </>
  );
}
