/** Small inline icons and the illustration of the sign-in pages (no icon library on these pages). */
import type { CSSProperties, ReactNode } from 'react';

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

/** One line icon of the sign-in pages: a 24-unit drawing in the text colour, hidden from screen readers. */
function LineIcon({ size = 18, style, children }: { size?: number; style?: CSSProperties; children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" {...stroke} style={style}>
      {children}
    </svg>
  );
}

export const UserIcon = () => (
  <LineIcon><circle cx="12" cy="8" r="4" /><path d="M4 20c1.5-3.5 4.5-5 8-5s6.5 1.5 8 5" /></LineIcon>
);

export const LockIcon = () => (
  <LineIcon><rect x="5" y="10.5" width="14" height="10" rx="2" /><path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" /></LineIcon>
);

export const MailIcon = () => (
  <LineIcon><rect x="3" y="5.5" width="18" height="13" rx="2" /><path d="M3.5 7l8.5 6 8.5-6" /></LineIcon>
);

export const PhoneIcon = () => (
  <LineIcon><rect x="6.5" y="2.5" width="11" height="19" rx="2" /><path d="M10.5 18h3" /></LineIcon>
);

/** A shield with a tick: the one-time code field. */
export const CodeIcon = () => (
  <LineIcon><path d="M12 3l7 3v5c0 4.5-3 8-7 10-4-2-7-5.5-7-10V6z" /><path d="M9 12l2 2 4-4" /></LineIcon>
);

export const EyeIcon = ({ open }: { open: boolean }) => (
  <LineIcon>
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12Z" />
    <circle cx="12" cy="12" r="3" />
    {!open && <path d="M4 20 20 4" />}
  </LineIcon>
);

export const AlertIcon = () => (
  <LineIcon size={16} style={{ flex: 'none', marginTop: 1 }}><circle cx="12" cy="12" r="9" /><path d="M12 7.5v5.5M12 16.5v.01" /></LineIcon>
);

export function LogoMark({ size = 26 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true">
      <circle cx="16" cy="16" r="13" fill="none" stroke="currentColor" strokeWidth="2.4" />
      <path d="M3 16h26" stroke="currentColor" strokeWidth="2.4" />
      <path d="M10 10.5l4 4 8-8" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A stylised dashboard: charts and a checklist, drawn in translucent white. */
export function LoginArt() {
  return (
    <svg className="ba-login__art" viewBox="0 0 300 220" aria-hidden="true">
      <rect x="10" y="20" width="200" height="140" rx="12" fill="rgba(255,255,255,0.14)" />
      <rect x="26" y="36" width="80" height="10" rx="5" fill="rgba(255,255,255,0.55)" />
      <rect x="26" y="54" width="120" height="6" rx="3" fill="rgba(255,255,255,0.3)" />
      <path d="M26 138 L60 110 L88 122 L122 86 L152 98 L192 64" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M26 138 L60 110 L88 122 L122 86 L152 98 L192 64 L192 146 L26 146 Z" fill="rgba(255,255,255,0.12)" />
      {[60, 88, 122, 152].map((x, index) => (
        <circle key={x} cx={x} cy={[110, 122, 86, 98][index]} r="4" fill="#fff" />
      ))}
      <rect x="150" y="110" width="136" height="96" rx="12" fill="rgba(255,255,255,0.92)" />
      {[0, 1, 2].map((row) => (
        <g key={row} transform={`translate(166 ${128 + row * 24})`}>
          <rect width="14" height="14" rx="4" fill={row < 2 ? '#67c23a' : 'rgba(64,158,255,0.25)'} />
          {row < 2 && <path d="M3.5 7.2l2.5 2.5 4.5-5" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />}
          <rect x="24" y="3" width={row === 1 ? 62 : 84} height="8" rx="4" fill="rgba(48,49,51,0.18)" />
        </g>
      ))}
      <circle cx="248" cy="52" r="34" fill="rgba(255,255,255,0.14)" />
      <path d="M248 18 A34 34 0 0 1 280 62 L248 52 Z" fill="rgba(255,255,255,0.75)" />
    </svg>
  );
}
