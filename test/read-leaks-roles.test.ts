/**
 * The read side of the authorization matrix, every role: from guest to administrator, against calendar
 * records of every owner in every state (test/support/visibility.ts): each vendor/events/v1 and ec/v1
 * list, its embedded venues and organizers, the iCalendar exports and the calendar abilities show only
 * records the caller's own single read allows, all such records in the statuses asked for, and totals
 * and pages that count exactly what they show. The hidden records of test/read-leaks.test.ts are in
 * the store too (test/support/read-leaks.ts).
 *
 * Runs on the embedded store and on MongoDB.
 */
import { type ApiResponse, appStores } from './support/app';
import { WHO } from './support/authz';
import { type Who } from './support/roles';
import {
  createVisibilityFixtures,
  ecPage,
  icalIds,
  KINDS,
  ReadOracle,
  statusOf,
  v1Page,
  walk,
  WINDOW,
  WORD,
  YEAR,
  filterAsync,
  type Fixture,
  type Kind,
  type Listing,
  type PageRead,
  type VisibilityFixtures,
} from './support/visibility';
import { readLeaksKit } from './support/read-leaks';

// Each test walks every role through hundreds of requests; on a loaded 2-core machine the MongoDB-wire
// test server makes that minutes, not seconds. The bound is for a hang, not a speed check.
jest.setTimeout(300_000);
describe.each(appStores('authz_reads'))('authorization matrix, read side (%s)', (storeName, env) => {
  const k = readLeaksKit(storeName, env);
  const { finish, tally, wrong } = k;

  // Every role reads records of every owner in every state: a list, an export or an ability shows a
  // record only when the caller's own single read allows it, shows every such record in the statuses
  // it asks for, and counts exactly what it shows. Runs after the tests above, which count what a
  // guest sees of the site without these records.
  describe('list versus single read, every role', () => {
    let vis: VisibilityFixtures;
    let oracle: ReadOracle;
    const PER_PAGE = 10;
    const ANY = ['publish', 'future', 'draft', 'pending', 'private'];
    /** Callers with the calendar types' edit capability may ask lists for any status. */
    const editsCalendar = (who: Who) => who !== 'guest' && who !== 'subscriber';

    beforeAll(async () => {
      vis = await createVisibilityFixtures(k.app, k.users, k.store);
      oracle = new ReadOracle(k.users);
    }, 300_000);

    /**
     * What a list showed, against the rule: each record (and each venue or organizer it embeds) is one
     * the caller's single read allows, and of the fixtures of `kind` it shows exactly the readable ones
     * in `statuses` (without the protected ones when a guest searches).
     */
    async function judge(who: Who, what: string, kind: Kind, ids: number[], embedded: Listing['embedded'], statuses: string[], guestSearch = false) {
      const refused = async (k: Kind, id: number) => !(await oracle.readable(who, k, id));
      for (const id of await filterAsync(ids, (id) => refused(kind, id))) wrong.push(`${who} ${what}: shows ${kind} ${id}, which its single read refuses`);
      for (const e of await filterAsync(embedded, (e) => refused(e.kind, e.id)))
        wrong.push(`${who} ${what}: embeds ${e.kind} ${e.id}, which its single read refuses`);
      const asked = vis.records.filter((r) => r.kind === kind && statuses.includes(statusOf(r.state)) && !(guestSearch && r.state === 'protected'));
      const expected = (await filterAsync(asked, (r) => oracle.readable(who, kind, r.id))).map((r) => r.id);
      const shown = new Set(ids);
      const missing = expected.filter((id) => !shown.has(id));
      if (missing.length) wrong.push(`${who} ${what}: leaves out readable ${kind} ${missing.join(',')}`);
      for (const r of vis.records.filter((f) => shown.has(f.id))) {
        if (!statuses.includes(statusOf(r.state))) wrong.push(`${who} ${what}: shows ${kind} ${r.id}, ${r.state}, not a status it asked for`);
        else if (guestSearch && r.state === 'protected') wrong.push(`${who} ${what}: a guest's search finds protected ${kind} ${r.id}`);
      }
    }

    /** A paged list: walked, judged, its totals checked. A refusal must be the reference's 400. */
    async function list(
      who: Who,
      what: string,
      kind: Kind,
      path: (page: number) => string,
      read: (res: ApiResponse) => PageRead,
      statuses: string[] | 'refused',
      guestSearch = false,
    ) {
      const listed = await walk((page) => k.users.as(who, 'GET', path(page)), read, PER_PAGE);
      tally.add(`${what.replace(/[?&].*/, '')} (list vs single)`, false);
      if (!('ids' in listed)) {
        if (statuses !== 'refused' || listed.status !== 400 || listed.body?.code !== 'rest_invalid_param')
          wrong.push(`${who} ${what}: ${listed.status} ${listed.body?.code ?? ''}, expected ${statuses === 'refused' ? '400 rest_invalid_param' : 200}`);
        return;
      }
      if (statuses === 'refused') return void wrong.push(`${who} ${what}: listed, where the reference refuses the status`);
      wrong.push(...listed.problems.map((p) => `${who} ${what}: ${p}`));
      await judge(who, what, kind, listed.ids, listed.embedded, statuses, guestSearch);
    }

    /** vendor/events/v1's status rule: exactly `publish` for callers without the edit capability, any status with it. */
    const v1Statuses = (who: Who, q: string): string[] | 'refused' => {
      const asked = /status=([^&]*)/.exec(q)?.[1];
      if (asked === undefined) return editsCalendar(who) ? ANY : ['publish'];
      if (!editsCalendar(who)) return asked === 'publish' ? ['publish'] : 'refused';
      return asked === 'any' ? ANY : asked.split(',');
    };
    const V1_QUERIES = [
      '',
      'status=any',
      'status=publish',
      'status=publish,future,draft,pending,private',
      'status=draft,private',
      'status=future,pending',
      'status=trash',
      `search=${WORD}`,
    ];

    it('vendor/events/v1 lists, with search and embeds: only what single reads allow, all of it, counted right', async () => {
      for (const who of WHO) {
        await Promise.all(
          KINDS.flatMap((kind) => {
            const window = kind === 'events' ? `${WINDOW}&` : '';
            return [...V1_QUERIES, ...(kind === 'events' ? ['_embed'] : [])].map((q) => {
              const path = (page: number) => `/vendor/events/v1/${kind}?${window}per_page=${PER_PAGE}&page=${page}${q ? `&${q}` : ''}`;
              return list(who, `vendor/events/v1/${kind}?${q}`, kind, path, v1Page(kind), v1Statuses(who, q), who === 'guest' && q.startsWith('search'));
            });
          }),
        );
      }
      wrong.push(...oracle.disagreements.splice(0));
      finish();
    }, 300_000);

    it('ec/v1 lists, with search and embeds: only what single reads allow, all of it, counted right', async () => {
      for (const who of WHO) {
        await Promise.all(
          KINDS.flatMap((kind) => {
            const window = kind === 'events' ? `${WINDOW}&` : '';
            // ec/v1 narrows what a caller may not ask for to `publish`, silently.
            return ['', 'status=publish,future,draft,pending,private', 'status=draft,private', `search=${WORD}`, '_embed'].map((q) => {
              const asked = /status=([^&]*)/.exec(q)?.[1]?.split(',') ?? ['publish'];
              const path = (page: number) => `/ec/v1/${kind}?${window}per_page=${PER_PAGE}&page=${page}${q ? `&${q}` : ''}`;
              return list(who, `ec/v1/${kind}?${q}`, kind, path, ecPage, editsCalendar(who) ? asked : ['publish'], who === 'guest' && q.startsWith('search'));
            });
          }),
        );
      }
      wrong.push(...oracle.disagreements.splice(0));
      finish();
    }, 300_000);

    it('iCalendar exports, the views and the abilities list only events, venues and organizers the caller may read', async () => {
      for (const who of WHO) {
        const exports = [
          ['vendor/events/v1/events/ical', `/vendor/events/v1/events/ical?${WINDOW}`],
          ['venue ical', `/vendor/events/v1/venues/${vis.venue}/ical?${WINDOW}`],
          ['organizer ical', `/vendor/events/v1/organizers/${vis.organizer}/ical?${WINDOW}`],
        ];
        for (const [what, base] of exports) {
          for (const q of ['', 'status=any', 'status=draft,private', 'status=future,pending', 'status=trash', `search=${WORD}`]) {
            const statuses = v1Statuses(who, q);
            const res = await k.users.as(who, 'GET', `${base}${q ? `&${q}` : ''}`);
            tally.add('iCalendar exports (list vs single)', false);
            if (statuses === 'refused') {
              if (res.status !== 400 || res.body?.code !== 'rest_invalid_param')
                wrong.push(`${who} ${what}?${q}: ${res.status}, expected 400 rest_invalid_param`);
              continue;
            }
            if (res.status !== 200) wrong.push(`${who} ${what}?${q}: ${res.status} ${res.body?.code ?? ''}`);
            else await judge(who, `${what}?${q}`, 'events', icalIds(res.text), [], statuses, who === 'guest' && q.startsWith('search'));
          }
        }
        // The front end's feed is the public archive's, whoever asks.
        const feed = await k.users.as(who, 'GET', `${k.app.url}/events/?ical=1&${WINDOW}`);
        tally.add('iCalendar exports (list vs single)', false);
        if (feed.status !== 200) wrong.push(`${who} /events/?ical=1: ${feed.status}`);
        else await judge(who, '/events/?ical=1', 'events', icalIds(feed.text), [], ['publish']);

        // The calendar views show the public archive, with the published venues and organizers of its events, whoever asks:
        // the list view from the fixtures' first day holds every published one (a card names one venue, the hub's first).
        const nonce = (await k.users.as(who, 'GET', '/vendor/events/v1/events')).headers.get('x-view-nonce') ?? '';
        const u = `/events/list/?tribe-bar-date=${YEAR}-01-01`;
        const view = await k.users.as(who, 'GET', `/vendor/views/v2/html?${new URLSearchParams({ u, tvn1: nonce })}`);
        tally.add('views HTML (list vs single)', false);
        if (view.status !== 200) wrong.push(`${who} views ${u}: ${view.status}`);
        // A name shows in a card's HTML or in the page's JSON-LD.
        const named = (r: Fixture) => [`<`, `"`].some((end) => view.text.includes(`${WORD} ${r.kind.replace(/s$/, '')} of the ${r.owner} ${r.state}${end}`));
        const shown = vis.records.filter(named);
        for (const r of shown) if (r.state !== 'publish' && r.state !== 'protected') wrong.push(`${who} views: show ${r.kind} ${r.id} (${r.state})`);
        for (const kind of ['events', 'organizers'] as const)
          for (const r of vis.records.filter((f) => f.kind === kind && f.state === 'publish' && !shown.includes(f)))
            wrong.push(`${who} views: leave out the published ${kind} ${r.id}`);
        if (!shown.some((r) => r.kind === 'venues')) wrong.push(`${who} views: the hub event shows no venue`);

        // The abilities run the v1 lists as their caller: the same statuses by default.
        for (const [ability, kind] of [
          ['find-events', 'events'],
          ['list-venues', 'venues'],
          ['list-organizers', 'organizers'],
        ] as const) {
          for (const extra of ['', `&input[search]=${WORD}`]) {
            const window = kind === 'events' ? `&input[start_date]=${YEAR}-01-01&input[end_date]=${YEAR}-12-31` : '';
            const path = (page: number) =>
              `/cms-abilities/v1/abilities/events-calendar/${ability}/run?input[per_page]=${PER_PAGE}&input[page]=${page}${window}${extra}`;
            await list(who, `ability ${ability}${extra}`, kind, path, v1Page(kind, false), v1Statuses(who, ''), who === 'guest' && extra !== '');
          }
        }
      }
      wrong.push(...oracle.disagreements.splice(0));
      finish();
    }, 300_000);
  });
});
