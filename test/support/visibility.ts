/**
 * List-versus-single visibility of calendar records: events, venues and organizers owned by each role
 * in each state (published, scheduled, draft, pending, private, trashed, password-protected); an oracle
 * that asks a caller's own single reads whether they may read a record; and a walker that reads every
 * page of a list with its totals. A test then checks that a list, an export or an ability shows only
 * records the caller's single read allows, shows all of those in the statuses it asked for, and counts
 * exactly what it shows.
 */
import type { Store } from '#libs/store/types';
import type { ApiResponse, TestApp } from './app';
import { ROLES, type RoleName, type RoleUsers, type Who } from './roles';

export const KINDS = ['events', 'venues', 'organizers'] as const;
export type Kind = (typeof KINDS)[number];

export const STATES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'protected'] as const;
export type State = (typeof STATES)[number];

/** The status a record in a state is stored with (a protected record is published, with a password). */
export const statusOf = (state: State): string => (state === 'protected' ? 'publish' : state);

export const PASSWORD = 'sesame';
/** Every fixture's title carries it, for the lists' search. */
export const WORD = 'Vislist';
/** The fixture events' year, away from other events of the same site. */
export const YEAR = '2028';
export const WINDOW = `start_date=${YEAR}-01-01&end_date=${YEAR}-12-31`;

export interface Fixture {
  id: number;
  kind: Kind;
  owner: RoleName;
  state: State;
}

export interface VisibilityFixtures {
  records: Fixture[];
  /** A published event at every venue, with every organizer, of the records: what lists embed. */
  hub: number;
  /** The published venue and organizer every fixture event is at: their exports list the events. */
  venue: number;
  organizer: number;
}

const SINGULAR: Record<Kind, string> = { events: 'event', venues: 'venue', organizers: 'organizer' };

/** Creates one record per kind, owner and state, written by the administrator in the owner's name. */
export async function createVisibilityFixtures(app: TestApp, users: RoleUsers, store: Store): Promise<VisibilityFixtures> {
  const made = async (method: string, path: string, body?: Record<string, unknown>): Promise<{ id: number }> => {
    const res = await app.admin(method, path, { body });
    if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const venue = (await made('POST', '/vendor/events/v1/venues', { venue: `${WORD} shared hall`, status: 'publish' })).id;
  const organizer = (await made('POST', '/vendor/events/v1/organizers', { organizer: `${WORD} shared host`, status: 'publish' })).id;
  const records: Fixture[] = [];
  let day = 0;
  for (const kind of KINDS) {
    for (const owner of ROLES) {
      for (const state of STATES) {
        const title = `${WORD} ${SINGULAR[kind]} of the ${owner} ${state}`;
        const common = {
          author: users.ids[owner],
          status: state === 'trash' || state === 'protected' ? 'publish' : state,
          description: `About ${title}`,
          ...(state === 'future' ? { date: '2031-01-01 10:00:00' } : {}),
        };
        const date = `${YEAR}-${String((day % 12) + 1).padStart(2, '0')}-${String((day++ % 28) + 1).padStart(2, '0')}`;
        const body =
          kind === 'events'
            ? { ...common, title, start_date: `${date} 10:00:00`, end_date: `${date} 12:00:00`, venue, organizer: [organizer] }
            : { ...common, [SINGULAR[kind]]: title };
        const { id } = await made('POST', `/vendor/events/v1/${kind}`, body);
        // The calendar routes take no password on write: the record gets one in the store.
        if (state === 'protected') await store.collection('posts').updateOne({ id }, { $set: { password: PASSWORD } });
        records.push({ id, kind, owner, state });
      }
    }
  }
  const linked = (kind: Kind) => records.filter((r) => r.kind === kind).map((r) => r.id);
  const hub = (
    await made('POST', '/ec/v1/events', {
      title: `${WORD} hub`,
      start_date: `${YEAR}-06-30 10:00:00`,
      end_date: `${YEAR}-06-30 12:00:00`,
      status: 'publish',
      venues: linked('venues'),
      organizers: linked('organizers'),
    })
  ).id;
  // Trashed last: an event cannot be linked to a trashed venue or organizer, but may stay linked to one.
  for (const r of records) if (r.state === 'trash') await made('DELETE', `/vendor/events/v1/${r.kind}/${r.id}`);
  return { records, hub, venue, organizer };
}

/**
 * Whether a caller may read a record, asked as the caller: ec/v1's single read answers 200 (a protected
 * record with its fields masked). vendor/events/v1's single read, given the password, must agree (a
 * trashed event there is "no longer available" to everyone, which says nothing of rights).
 */
export class ReadOracle {
  private readonly known = new Map<string, Promise<boolean>>();
  readonly disagreements: string[] = [];

  constructor(private readonly users: RoleUsers) {}

  readable(who: Who, kind: Kind, id: number): Promise<boolean> {
    const key = `${who}:${kind}:${id}`;
    let answer = this.known.get(key);
    if (!answer) {
      answer = this.ask(who, kind, id);
      this.known.set(key, answer);
    }
    return answer;
  }

  private async ask(who: Who, kind: Kind, id: number): Promise<boolean> {
    const [ec, v1] = await Promise.all([
      this.users.as(who, 'GET', `/ec/v1/${kind}/${id}`),
      this.users.as(who, 'GET', `/vendor/events/v1/${kind}/${id}?password=${PASSWORD}`),
    ]);
    const readable = ec.status === 200;
    if (v1.body?.code !== 'event-no-longer-available' && (v1.status === 200) !== readable)
      this.disagreements.push(`${who} ${kind}/${id}: ec/v1 single ${ec.status}, vendor/events/v1 single ${v1.status} ${v1.body?.code ?? ''}`);
    return readable;
  }
}

/** One page of a list as its dialect answers it. */
export interface PageRead {
  ids: number[];
  /** Linked records the page embeds. */
  embedded: Array<{ kind: Kind; id: number }>;
  total: number;
  pages: number;
  /** Whether the page links to a next one (null: the answer has no links). */
  hasNext: boolean | null;
  /** Where the page's own totals disagree with each other. */
  problems: string[];
}

export interface Listing {
  ids: number[];
  embedded: Array<{ kind: Kind; id: number }>;
  total: number;
  problems: string[];
}

const idOf = (r: unknown): number[] => (r && typeof r === 'object' && 'id' in r && typeof r.id === 'number' ? [r.id] : []);
const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v.flatMap(idOf) : idOf(v));
/** A password-protected ec/v1 event masks its embedded records' ids to 0: those name no record. */
const linkedIdsOf = (v: unknown): number[] => idsOf(v).filter((id) => id > 0);

/** The linked venues and organizers an event of either dialect embeds. */
function embeddedOf(record: Record<string, unknown>): Array<{ kind: Kind; id: number }> {
  return [
    ...linkedIdsOf(record.venue ?? record.venues).map((id) => ({ kind: 'venues' as const, id })),
    ...linkedIdsOf(record.organizer ?? record.organizers).map((id) => ({ kind: 'organizers' as const, id })),
  ];
}

const num = (res: ApiResponse, header: string): number => Number(res.headers.get(header));

/** A vendor/events/v1 archive page (`key`: events, venues, organizers), or (`envelope` false) an ability's answer: records and totals only. */
export function v1Page(key: string, envelope = true) {
  return (res: ApiResponse): PageRead => {
    const items: Array<Record<string, unknown>> = res.body?.[key] ?? [];
    const total = Number(res.body?.total);
    const pages = Number(res.body?.total_pages);
    const problems: string[] = [];
    if (envelope && (num(res, 'x-tec-total') !== total || num(res, 'x-tec-totalpages') !== pages))
      problems.push(`X-TEC-Total ${res.headers.get('x-tec-total')}/${res.headers.get('x-tec-totalpages')}, body ${total}/${pages}`);
    return { ids: items.flatMap(idOf), embedded: items.flatMap(embeddedOf), total, pages, hasNext: envelope ? 'next_rest_url' in res.body : null, problems };
  };
}

/** An ec/v1 list page: a bare array, X-WP-Total, X-WP-TotalPages and a Link to the next page. */
export function ecPage(res: ApiResponse): PageRead {
  const items: Array<Record<string, unknown>> = Array.isArray(res.body) ? res.body : [];
  return {
    ids: items.flatMap(idOf),
    embedded: items.flatMap(embeddedOf),
    total: num(res, 'x-wp-total'),
    pages: num(res, 'x-wp-totalpages'),
    hasNext: /rel="next"/.test(res.headers.get('link') ?? ''),
    problems: [],
  };
}

/**
 * Reads every page of a list (`get(page)`), checking that each page tells the same totals, that the
 * pages and their next links agree with the total and the page size, that no record shows twice, and
 * that the total counts exactly the records shown. The first page's answer when it is not a 200.
 */
export async function walk(get: (page: number) => Promise<ApiResponse>, read: (res: ApiResponse) => PageRead, perPage: number): Promise<Listing | ApiResponse> {
  const first = await get(1);
  if (first.status !== 200) return first;
  const out: Listing = { ids: [], embedded: [], total: 0, problems: [] };
  let page = read(first);
  out.total = page.total;
  const pages = page.pages;
  if (pages !== Math.ceil(page.total / perPage)) out.problems.push(`${pages} pages for ${page.total} records of ${perPage} a page`);
  for (let n = 1; ; n++) {
    out.problems.push(...page.problems.map((p) => `page ${n}: ${p}`));
    if (page.total !== out.total || page.pages !== pages) out.problems.push(`page ${n}: total ${page.total}/${page.pages}, page 1 said ${out.total}/${pages}`);
    if (page.hasNext !== null && page.hasNext !== n < pages) out.problems.push(`page ${n} of ${pages}: next link ${page.hasNext ? 'present' : 'missing'}`);
    out.ids.push(...page.ids);
    out.embedded.push(...page.embedded);
    if (n >= pages) break;
    const res = await get(n + 1);
    if (res.status !== 200) {
      out.problems.push(`page ${n + 1} of ${pages}: ${res.status} ${res.body?.code ?? ''}`);
      break;
    }
    page = read(res);
  }
  if (new Set(out.ids).size !== out.ids.length) out.problems.push(`a record shows on two pages: ${out.ids.join(',')}`);
  if (out.ids.length !== out.total) out.problems.push(`total ${out.total}, ${out.ids.length} records shown`);
  return out;
}

/** The event ids of an iCalendar export (its UIDs `event-<id>@host`). */
export function icalIds(text: string): number[] {
  return [...text.replace(/\r\n[ \t]/g, '').matchAll(/^UID:event-(\d+)@/gm)].map((m) => Number(m[1]));
}

/** The items `keep` says yes to, asked of all at once. */
export async function filterAsync<T>(items: T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept = await Promise.all(items.map(keep));
  return items.filter((_, i) => kept[i]);
}
