import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { TEAM_PERIODS } from '../../../../contract/member-api.js';
import { formatPercent } from '../../../../contract/money.js';
import { CopyField } from '../../../components/CopyField.js';
import { formatDateTime } from '../../../format/datetime.js';
import { messageOf } from '../../../http/error-body.js';
import { PageCard } from '../common/PageCard.js';
import { RecordTable, type RecordColumn } from '../common/RecordTable.js';
import { useServerForm } from '../common/use-server-form.js';
import { useDiscardGuard } from '../../../components/discard-guard.js';
import { invitationLink, teamApi, type TeamApi, type TeamInvite, type TeamMemberRow, type TeamOverview, type TeamPeriod, type TeamState } from './team-api.js';
import { TeamJoin } from './TeamJoin.js';
import '../../member-home.css';

type TeamMember = TeamMemberRow;

type Editing = { kind: 'add' } | { kind: 'password'; member: TeamMember };


/** The add-member and set-password dialogs: one form, refusals on their fields; typed input is not dropped unasked. */
function MemberDialog({ editing, api, onClose, onDone }: { editing: Editing; api: TeamApi; onClose(): void; onDone(): void }) {
  const translate = useTranslate();
  const form = useServerForm();
  const [values, setValues] = useState({ username: '', nickname: '', password: '' });
  const adding = editing.kind === 'add';
  const names = adding ? (['username', 'nickname', 'password'] as const) : (['password'] as const);
  const guard = useDiscardGuard(onClose, Object.values(values).some((value) => value !== ''));
  const save = async () => {
    const done = await form.submit(() => (adding ? api.add(values) : api.setPassword(editing.member.id, values.password)));
    if (done) onDone();
  };
  return (
    <>
      <Dialog open onClose={guard.requestClose} fullWidth maxWidth="xs" aria-labelledby="team-dialog-title">
        <DialogTitle id="team-dialog-title">{adding ? translate('memberTeam.add') : translate('memberTeam.setPasswordOf', { name: editing.member.username })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {names.map((name) => (
              <TextField
                key={name}
                name={name}
                type={name === 'password' ? 'password' : 'text'}
                autoComplete={name === 'password' ? 'new-password' : 'off'}
                label={translate(`memberTeam.fields.${name}`)}
                value={values[name]}
                onChange={(event) => setValues({ ...values, [name]: event.target.value })}
                {...form.fieldProps(name)}
              />
            ))}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={guard.requestClose}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" disabled={form.busy} onClick={() => void save()}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </Dialog>
      {guard.confirm}
    </>
  );
}

/** The leader's invitation: the code and the link to hand on, until when they work, a new code or none. */
function InvitePanel({ invite, api, onChange }: { invite: TeamInvite; api: TeamApi; onChange(invite: TeamInvite): void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const change = async (action: 'renew' | 'revoke') => {
    setBusy(true);
    try {
      const answer = await api.invite(action);
      onChange(answer.invite);
      notify(answer.message, { type: 'success', messageArgs: { _: answer.message } });
    } catch (error) {
      const message = messageOf(error);
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };
  const copied = translate('memberTeam.invite.copied');
  return (
    <Box component="section" aria-labelledby="team-invite-title" sx={{ mb: 2 }} data-testid="team-invite">
      <Typography variant="subtitle1" component="h2" id="team-invite-title" sx={{ fontWeight: 600 }}>
        {translate('memberTeam.invite.title')}
      </Typography>
      {invite.invite_code ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
            {translate('memberTeam.invite.help', { time: formatDateTime(invite.invite_expire_time ?? 0) })}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 0, md: 2 }}>
            <Box sx={{ flex: { md: '0 0 220px' } }}>
              <CopyField label={translate('memberTeam.invite.code')} value={invite.invite_code} copyLabel={translate('memberTeam.invite.copyCode')} copiedLabel={copied} multiline={false} />
            </Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <CopyField label={translate('memberTeam.invite.link')} value={invitationLink(invite.invite_code)} copyLabel={translate('memberTeam.invite.copyLink')} copiedLabel={copied} />
            </Box>
          </Stack>
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('memberTeam.invite.none')}
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="outlined" disabled={busy} onClick={() => void change('renew')}>
          {translate(invite.invite_code ? 'memberTeam.invite.renew' : 'memberTeam.invite.make')}
        </Button>
        {invite.invite_code && (
          <Button color="error" disabled={busy} onClick={() => void change('revoke')}>
            {translate('memberTeam.invite.revoke')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}

/** The period as a button says it ("Last 7 days"), or inside a sentence ("last 7 days"). */
function periodLabel(translate: ReturnType<typeof useTranslate>, days: TeamPeriod, inText = false): string {
  if (days === 0) return translate(inText ? 'memberTeam.period.allInText' : 'memberTeam.period.all');
  return translate(inText ? 'memberTeam.period.inText' : 'memberTeam.period.days', { smart_count: days });
}

/**
 * The leader's team: the invitation, the commission rate as a percentage, and the members (the leader first)
 * with their last activity, completes, earnings and the leader's commission on them in the chosen period,
 * searchable, paged; the leader adds member accounts and sets their passwords.
 */
function LeaderTeam({ api }: { api: TeamApi }) {
  const translate = useTranslate();
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState('');
  const [days, setDays] = useState<TeamPeriod>(30);
  const [overview, setOverview] = useState<TeamOverview['team'] | undefined>(undefined);
  const [total, setTotal] = useState(0);
  const [invite, setInvite] = useState<TeamInvite | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<Editing | undefined>(undefined);
  const load = useCallback(
    async (page: number, limit: number) => {
      const answer = await api.members(page, limit, search, days);
      setOverview(answer.team);
      setInvite((current) => current ?? { invite_code: answer.team.invite_code, invite_expire_time: answer.team.invite_expire_time });
      if (!search) setTotal(answer.total);
      return answer;
    },
    // `version` reloads after an add.
    [api, search, days, version],
  );
  const columns: RecordColumn<TeamMember>[] = [
    {
      key: 'member',
      label: translate('memberTeam.member'),
      render: (row) => (
        <>
          {row.nickname && row.nickname !== row.username ? `${row.nickname} (${row.username})` : row.username}
          {row.is_leader && <Chip size="small" label={translate('memberTeam.leader')} sx={{ ml: 1 }} />}
        </>
      ),
    },
    { key: 'active', label: translate('memberTeam.lastActive'), render: (row) => (row.last_active_time > 0 ? formatDateTime(row.last_active_time) : translate('memberTeam.never')) },
    { key: 'completes', label: translate('memberTeam.completes'), render: (row) => row.completes, align: 'right' },
    { key: 'earnings', label: translate('memberTeam.earnings'), render: (row) => `¥${row.earnings}`, align: 'right' },
    { key: 'commission', label: translate('memberTeam.commission'), render: (row) => (row.is_leader ? translate('memberTeam.ownEarnings') : `¥${row.commission}`), align: 'right' },
    // An account an operator made has no registration time: nothing to show.
    { key: 'joined', label: translate('memberTeam.joined'), render: (row) => (row.join_time > 0 ? formatDateTime(row.join_time) : '') },
    {
      key: 'actions',
      label: translate('memberTeam.actions'),
      render: (row) => (
        <Button size="small" onClick={() => setEditing({ kind: 'password', member: row })}>
          {translate('memberTeam.setPassword')}
        </Button>
      ),
    },
  ];
  const rate = overview ? formatPercent(overview.commission_rate_bp) : '';
  return (
    <>
      {overview && (
        <>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('memberTeam.teamName', { name: overview.name })}
          </Typography>
          {invite && <InvitePanel invite={invite} api={api} onChange={setInvite} />}
          <Stack direction="row" sx={{ mb: 1, mt: 3, alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
              {translate('memberTeam.figures')}
            </Typography>
            <ToggleButtonGroup size="small" exclusive value={days} onChange={(_, next: TeamPeriod | null) => next !== null && setDays(next)} aria-label={translate('memberTeam.period.label')}>
              {TEAM_PERIODS.map((period) => (
                <ToggleButton key={period} value={period}>
                  {periodLabel(translate, period)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
          <div className="ba-member__stats" data-testid="team-figures">
            <div className="ba-member__stat" data-testid="team-rate">
              <span>{translate('memberTeam.rate')}</span>
              <strong>{rate}</strong>
            </div>
            <div className="ba-member__stat">
              <span>{translate('memberTeam.memberCount')}</span>
              <strong>{total}</strong>
            </div>
            <div className="ba-member__stat" data-testid="team-commission">
              <span>{translate('memberTeam.yourCommission', { period: periodLabel(translate, overview.days, true) })}</span>
              <strong>¥{overview.commission}</strong>
            </div>
          </div>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 2 }}>
            {translate('memberTeam.commissionHelp', { rate })}
          </Typography>
          <Stack
            component="form"
            direction="row"
            spacing={1}
            sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
            onSubmit={(event) => {
              event.preventDefault();
              setSearch(keyword.trim());
            }}
          >
            <TextField size="small" label={translate('memberTeam.search')} value={keyword} onChange={(event) => setKeyword(event.target.value)} />
            <Button type="submit" variant="outlined">
              {translate('ra.action.search')}
            </Button>
            <Stack sx={{ flex: 1 }} />
            <Button variant="contained" onClick={() => setEditing({ kind: 'add' })}>
              {translate('memberTeam.add')}
            </Button>
          </Stack>
        </>
      )}
      <RecordTable load={load} columns={columns} label={translate('memberTeam.title')} empty={translate('memberTeam.empty')} />
      {editing && (
        <MemberDialog
          editing={editing}
          api={api}
          onClose={() => setEditing(undefined)}
          onDone={() => {
            setEditing(undefined);
            setVersion((count) => count + 1);
          }}
        />
      )}
    </>
  );
}

/**
 * `team/members`: the member's team. A leader sees their team (`LeaderTeam`); a member of a team sees it and
 * may leave; a member in none joins by an invitation code or creates a team (`TeamJoin`). A leader's link
 * (`?invite=<code>`) opens the invitation for the member to accept or decline.
 */
export function TeamPage({ api = teamApi }: { api?: TeamApi }) {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const inviteCode = params.get('invite') ?? '';
  const [state, setState] = useState<TeamState | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let alive = true;
    api.mine().then(
      (answer) => alive && setState(answer),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [api, version]);
  const leads = state?.team?.is_leader === true;
  return (
    // The menu's title, whoever reads it (the browser title names the page as the menu does).
    <PageCard title={translate('memberTeam.title')}>
      {failure && <Alert severity="error">{failure}</Alert>}
      {state && leads && (
        <>
          {inviteCode && (
            <Alert severity="info" sx={{ mb: 2 }} onClose={() => setParams({}, { replace: true })}>
              {translate('memberTeam.invitation.ownTeam')}
            </Alert>
          )}
          <LeaderTeam api={api} />
        </>
      )}
      {state && !leads && (
        <TeamJoin
          key={version}
          state={state}
          api={api}
          inviteCode={inviteCode}
          onChanged={() => setVersion((count) => count + 1)}
          onInviteDone={() => setParams({}, { replace: true })}
        />
      )}
    </PageCard>
  );
}
