import { useEffect, useState } from 'react';
import { setSiteTimeZone, siteTimeZoneKnown } from '../../format/datetime.js';
import type { SurveyApi } from './survey-api.js';

/**
 * Dates read on the site's clock outside the member centre too: the zone comes from the member
 * bootstrap when no page has set it yet. Until it is known (or could not be had) nothing is dated.
 */
export function useSiteTimeZone(api: SurveyApi, enabled: boolean): boolean {
  const [known, setKnown] = useState(siteTimeZoneKnown);
  useEffect(() => {
    if (known || !enabled) return;
    let alive = true;
    api.siteTimeZone().then(
      (zone) => {
        setSiteTimeZone(zone);
        if (alive) setKnown(true);
      },
      () => alive && setKnown(true),
    );
    return () => {
      alive = false;
    };
  }, [api, known, enabled]);
  return known;
}
