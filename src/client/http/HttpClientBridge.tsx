import { useEffect } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { configureHttpClient } from './index.js';

/**
 * Render once inside `<Admin>` (e.g. in the layout): points the http client singleton at the
 * router's navigate, react-admin's notifications and the i18n provider's translate.
 */
export function HttpClientBridge(): null {
  const navigate = useNavigate();
  const notify = useNotify();
  const translate = useTranslate();
  useEffect(
    () =>
      configureHttpClient({
        navigate: (to) => navigate(to),
        // Messages arrive translated (server msg or our catalogue); `_` keeps polyglot from re-keying them.
        notify: (message, type) => notify(message, { type, messageArgs: { _: message } }),
        translate: (key) => translate(key),
      }),
    [navigate, notify, translate],
  );
  return null;
}
