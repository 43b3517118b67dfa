import { useCallback, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../../format/datetime.js';
import { httpClient, type HttpClient } from '../../../http/index.js';
import { messageOf } from '../../../http/error-body.js';
import { PageCard } from '../common/PageCard.js';
import { RecordTable, type RecordColumn } from '../common/RecordTable.js';
import { useServerForm } from '../common/use-server-form.js';
import { useDiscardGuard } from '../../../components/discard-guard.js';

interface TeamMember {
  id: number;
  username: string;
  nickname: string;
  money: string;
  completes: number;
  earnings: string;
  join_time: number;
}

interface TeamApi {
  members(page: number, limit: number, keyword: string): Promise<{ team: { id: number; name: string }; list: TeamMember[]; total: number }>;
  add(input: { username: string; nickname: string; password: string }): Promise<string>;
  setPassword(id: number, password: string): Promise<string>;
}

/** The leader's calls (`/api/team.team/*`, docs/survey-domain.md#teams); the server refuses them to everyone else. */
function createTeamApi(client: HttpClient = httpClient): TeamApi {
  const quiet = { area: 'user' as const, showErrorMessage: false };
  return {
    async members(page, limit, keyword) {
      return (await client.request<Awaited<ReturnType<TeamApi['members']>>>('/api/team.team/getTeamList', { ...quiet, params: { page, limit, keyword } })).data;
    },
    async add(input) {
      return (await client.request('/api/team.team/AddTeamUser', { ...quiet, method: 'POST', data: input })).msg;
    },
    async setPassword(id, password) {
      return (await client.request('/api/team.team/teamchangePassword', { ...quiet, method: 'POST', data: { id, password } })).msg;
    },
  };
}

const teamApi = createTeamApi();

/** The server's refusal to a member who leads no team (`data.type` "no team"), whose message says so. */
function noTeamMessage(error: unknown): string | undefined {
  const body = (error as { body?: { data?: { type?: unknown } } }).body;
  return body?.data?.type === 'no team' ? messageOf(error) : undefined;
}

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

/**
 * `team/members`: the leader's team with each member's completes and earnings, searchable, paged; the
 * leader adds members and sets their passwords. A member who leads no team reads that, and nothing else:
 * the search and the add button show once the server has named the team.
 */
export function TeamPage({ api = teamApi }: { api?: TeamApi }) {
  const translate = useTranslate();
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState('');
  const [team, setTeam] = useState<string | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<Editing | undefined>(undefined);
  const [noTeam, setNoTeam] = useState<string | undefined>(undefined);
  const load = useCallback(
    async (page: number, limit: number) => {
      try {
        const answer = await api.members(page, limit, search);
        setTeam(answer.team.name);
        return answer;
      } catch (error) {
        const message = noTeamMessage(error);
        if (message === undefined) throw error;
        setNoTeam(message);
        return { list: [], total: 0 };
      }
    },
    // `version` reloads after an add.
    [api, search, version],
  );
  const columns: RecordColumn<TeamMember>[] = [
    { key: 'username', label: translate('memberTeam.fields.username'), render: (row) => row.username },
    { key: 'nickname', label: translate('memberTeam.fields.nickname'), render: (row) => row.nickname },
    { key: 'completes', label: translate('memberTeam.completes'), render: (row) => row.completes, align: 'right' },
    { key: 'earnings', label: translate('memberTeam.earnings'), render: (row) => `¥${row.earnings}`, align: 'right' },
    { key: 'joined', label: translate('memberTeam.joined'), render: (row) => formatDateTime(row.join_time) },
    {
      key: 'actions',
      label: '',
      render: (row) => (
        <Button size="small" onClick={() => setEditing({ kind: 'password', member: row })}>
          {translate('memberTeam.setPassword')}
        </Button>
      ),
    },
  ];
  if (noTeam !== undefined) {
    return (
      <PageCard title={translate('memberTeam.title')}>
        <Alert severity="info">{noTeam}</Alert>
      </PageCard>
    );
  }
  return (
    <PageCard title={translate('memberTeam.title')}>
      {team && (
        <>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {translate('memberTeam.teamName', { name: team })}
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
    </PageCard>
  );
}
