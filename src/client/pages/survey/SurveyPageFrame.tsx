import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LanguageSwitch } from '../../components/LanguageSwitch.js';
import { LogoMark } from '../../components/login-art.js';
import type { Translate } from '../../i18n/translate.js';
import type { Language } from '../../../contract/headers.js';
import './survey-pages.css';

/** The frame of the standalone survey pages: a slim bar (home, records, language) and a centred card. */
export function SurveyPageFrame({ t, language, children, tone = 'info' }: { t: Translate; language: Language; children: ReactNode; tone?: 'info' | 'success' | 'warning' | 'danger' }) {
  return (
    <div className="ba-survey">
      <header className="ba-survey__bar">
        <Link to="/user" className="ba-survey__brand">
          <LogoMark size={20} /> {t('survey.memberCentre')}
        </Link>
        <nav className="ba-survey__nav">
          <Link to="/tracking">{t('survey.tracking.title')}</Link>
          <LanguageSwitch current={language} />
        </nav>
      </header>
      <main className={`ba-survey__card ba-survey__card--${tone}`}>{children}</main>
    </div>
  );
}
