/**
 * The parameter types the calendar handlers derive from the vendor/events/v1, views and onboarding
 * declarations (libs/rest/params.ts), checked by the compiler (`tsc --noEmit` runs in `npm test`): a
 * wrong derivation fails the type-check, not a test run.
 */
import type { InputOf, Shared } from '../../rest/params';
import { ONBOARDING_WIZARD_ENDPOINT, VIEWS_HTML_ENDPOINT } from '../calendar-views';
import { VENDOR_EVENT_ENDPOINTS, VENDOR_ICAL_ENDPOINTS, VENDOR_LINKED_ENDPOINTS, VENDOR_TERM_ENDPOINTS } from '.';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(): T | undefined => undefined;

const E = VENDOR_EVENT_ENDPOINTS;
type EventList = InputOf<typeof E.list>;
type EventCreate = InputOf<typeof E.create>;
type EventUpdate = InputOf<typeof E.update>;
type EventGet = InputOf<typeof E.get>;
type EventSlugUpdate = InputOf<typeof E.slug.update>;
type EventSingle = InputOf<Shared<typeof E.update | typeof E.slug.update>>;

const L = VENDOR_LINKED_ENDPOINTS;
type LinkedList = InputOf<Shared<typeof L.venues.list | typeof L.organizers.list>>;
type VenueCreate = InputOf<typeof L.venues.create>;
type OrganizerCreate = InputOf<typeof L.organizers.create>;
type OrganizerUpdate = InputOf<typeof L.organizers.update>;
type LinkedUpdate = InputOf<Shared<typeof L.venues.update | typeof L.organizers.slug.update>>;

const T = VENDOR_TERM_ENDPOINTS;
type CategoryList = InputOf<typeof T.categories.list>;
type TermList = InputOf<Shared<typeof T.categories.list | typeof T.tags.list>>;
type TermCreate = InputOf<Shared<typeof T.categories.create | typeof T.tags.create>>;
type CategoryUpdate = InputOf<typeof T.categories.update>;

type ICalSingle = InputOf<typeof VENDOR_ICAL_ENDPOINTS.event>;
type ICalLinked = InputOf<Shared<typeof VENDOR_ICAL_ENDPOINTS.venue | typeof VENDOR_ICAL_ENDPOINTS.organizer>>;
type Views = InputOf<typeof VIEWS_HTML_ENDPOINT>;
type Wizard = InputOf<typeof ONBOARDING_WIZARD_ENDPOINT>;

describe('vendor/events/v1 parameter types', () => {
  it('types the events from their declarations', () => {
    is<Equal<EventList['page'], number>>();
    // per_page is what its sanitize callback returns (clamped to the largest page).
    is<Equal<EventList['per_page'], number>>();
    is<Equal<EventList['strict_dates'], boolean>>();
    is<Equal<EventList['venue'], number[] | null | undefined>>();
    is<Equal<EventList['categories'], Array<number | string> | null | undefined>>();
    is<Equal<EventList['status'], string[] | null | undefined>>();
    is<Equal<EventList['geoloc_lat'], number | null | undefined>>();
    // A create requires its title and dates; an update does not.
    is<Equal<EventCreate['title'], string>>();
    is<Equal<EventCreate['start_date'], string>>();
    is<Equal<EventUpdate['title'], string | null | undefined>>();
    is<Equal<EventCreate['author'], number | null | undefined>>();
    is<Equal<EventCreate['all_day'], boolean>>();
    // A null default leaves the argument null when the request does not carry it.
    is<Equal<EventCreate['website'], unknown>>();
    is<Equal<EventCreate['categories'], Array<number | string> | null | undefined>>();
    is<Equal<EventCreate['venue'], Array<number | object> | null | undefined>>();
    is<Equal<EventGet['id'], number>>();
    is<Equal<EventGet['password'], string | null | undefined>>();
    is<Equal<EventUpdate['id'], number>>();
    // The by-slug update's `slug` is the slug to write, which a request need not carry.
    is<Equal<EventSlugUpdate['slug'], string | null | undefined>>();
    is<Equal<EventSingle['author'], number | null | undefined>>();
    expect(E.get.captures).toEqual(['id']);
    expect(E.slug.get.captures).toEqual([]);
  });

  it('types venues and organizers, as one family and each', () => {
    is<Equal<LinkedList['page'], number>>();
    is<Equal<LinkedList['event'], number | null | undefined>>();
    is<Equal<LinkedList['has_events'], boolean | null | undefined>>();
    is<Equal<LinkedList['only_with_upcoming'], boolean>>();
    is<Equal<LinkedList['status'], string[] | null | undefined>>();
    is<Equal<VenueCreate['venue'], string>>();
    is<Equal<VenueCreate['city'], string | null | undefined>>();
    is<Equal<VenueCreate['show_map'], boolean | null | undefined>>();
    is<Equal<OrganizerCreate['organizer'], string>>();
    is<Equal<OrganizerUpdate['organizer'], string | null | undefined>>();
    is<Equal<OrganizerUpdate['id'], number>>();
    is<Equal<LinkedUpdate['author'], number | null | undefined>>();
    is<Equal<LinkedUpdate['description'], string | null | undefined>>();
    expect(L.venues.slug.get.captures).toEqual([]);
  });

  it('types categories and tags, categories adding parent', () => {
    is<Equal<CategoryList['parent'], number | null | undefined>>();
    is<Equal<TermList['order'], 'asc' | 'desc'>>();
    is<Equal<TermList['orderby'], 'id' | 'include' | 'name' | 'slug' | 'include_slugs' | 'term_group' | 'description' | 'count'>>();
    is<Equal<TermList['hide_empty'], boolean>>();
    is<Equal<TermList['include'], number[] | null | undefined>>();
    is<Equal<'parent' extends keyof TermList ? true : false, false>>();
    is<Equal<TermCreate['name'], string>>();
    is<Equal<CategoryUpdate['name'], string | null | undefined>>();
    is<Equal<CategoryUpdate['parent'], number | null | undefined>>();
    is<Equal<CategoryUpdate['id'], number>>();
    expect(T.tags.get.captures).toEqual(['id']);
  });

  it('types the iCalendar exports, the views and the wizard', () => {
    is<Equal<ICalSingle['id'], number>>();
    is<Equal<ICalSingle['password'], string | null | undefined>>();
    is<Equal<ICalLinked['id'], number>>();
    is<Equal<ICalLinked['start_date'], string | null | undefined>>();
    is<Equal<'venue' | 'organizer' | 'page' extends keyof ICalLinked ? true : false, false>>();
    is<Equal<Views['u'], string>>();
    is<Equal<Views['tvn1'], string | null | undefined>>();
    is<Equal<Views['view_data'], Record<string, unknown> | null | undefined>>();
    is<Equal<Wizard['action_nonce'], string>>();
    expect(VENDOR_ICAL_ENDPOINTS.venue.captures).toEqual(['id']);
  });
});
