/**
 * ec/v1 writes go through the same write commands as vendor/events/v1, so one record reads the same
 * through both interfaces: an ec/v1 request's validated arguments are read into an event write
 * (`saveEvent`) or a venue or organizer write by the fields' ec/v1 names (libs/calendar/fields.ts:
 * `content` is the description, `featured_media` the image, `vendor_events_cat` the categories), post
 * dates as one UTC date, and their errors name the ec/v1 arguments. Declared defaults (status `publish`,
 * open comments and pings, standard format) apply on create only.
 */
import { EVENT_FIELDS as F, ecName, fieldEntries } from '#libs/calendar/fields';
import { TAG_TAXONOMY } from '#libs/calendar/meta';
import { mysqlLocal } from '#libs/dates/format';
import { parseDateInput } from '#libs/dates/post-dates';
import type { PostDoc } from '#libs/posts/types';
import type { HandlerContext } from '#libs/rest/service';
import { EC_ENDPOINTS } from '#libs/routes/ec/index';
import type { CalendarDeps } from '../deps';
import { paramFailure } from '../errors';
import { checkEventWrite, checkTerms, saveEvent, type EventWrite, type SavedEvent } from '../events/write';
import { through } from '../http';
import { checkLinkedInput, saveLinked, type LinkedInput } from '../linked/write';
import type { PostFieldsInput } from '../post-fields';
import type { EcKind } from './kinds';

/** Arguments whose declared default is written on create. */
const CREATE_DEFAULTS = ['status', 'comment_status', 'ping_status', 'format', 'sticky'];

/** The post date a request sets (`date_gmt` in UTC, else `date` in the site time zone), as `Y-m-d H:i:s` UTC. */
function postDateUtc(ctx: HandlerContext, zone: string): string | undefined {
  const given = (n: string) => (ctx.has(n) ? ctx.args.str(n) : undefined);
  const dateGmt = given('date_gmt');
  const date = given('date');
  const parsed = dateGmt !== undefined ? parseDateInput(dateGmt, zone, true) : date !== undefined ? parseDateInput(date, zone) : null;
  return parsed ? mysqlLocal(parsed.gmt, 'UTC') : undefined;
}

/** Whether the request gives an ec/v1 argument a value (or, on create, its declared default does). */
function gives(ctx: HandlerContext, name: string, create: boolean): boolean {
  const v = ctx.params[name];
  if (v === undefined || v === null) return false;
  return ctx.has(name) || (create && CREATE_DEFAULTS.includes(name));
}

/** Reads the arguments a request gives (see `gives`) from its validated `input`, typed as declared; the rest are absent. */
function reader<A extends Readonly<Record<string, unknown>>>(ctx: HandlerContext, input: A, create: boolean) {
  return <K extends keyof A & string>(name: K): NonNullable<A[K]> | undefined => (gives(ctx, name, create) ? (input[name] ?? undefined) : undefined);
}

/** The post fields every entity is written with. */
function postFields(given: (name: 'comment_status' | 'ping_status' | 'format' | 'template') => string | undefined): PostFieldsInput {
  return { comment_status: given('comment_status'), ping_status: given('ping_status'), format: given('format'), template: given('template') };
}

/** The event write of an ec/v1 event create or update. */
export function ecEventWrite(ctx: HandlerContext, deps: CalendarDeps, create: boolean): EventWrite {
  if (!through(ctx, EC_ENDPOINTS.events.create, EC_ENDPOINTS.events.update)) throw new Error(`ec/v1 event write bound to ${ctx.req.endpoint}`);
  const given = reader(ctx, ctx.input, create);
  return {
    user: ctx.user,
    dialect: 'ec',
    input: {
      title: given(F.title.ec),
      description: given(F.description.ec),
      excerpt: given(F.excerpt.ec),
      slug: given(F.slug.ec),
      status: given(F.status.ec),
      author: given(F.author.ec),
      dateUtc: postDateUtc(ctx, deps.site.timezone),
      timezone: given(F.timezone.ec),
      allDay: given(F.allDay.ec),
      start: given(F.start.ec),
      startUtc: given(F.startUtc.ec),
      end: given(F.end.ec),
      endUtc: given(F.endUtc.ec),
      duration: given(F.duration.ec),
      image: given(F.image.ec),
      cost: given(F.cost.ec),
      sticky: given(F.sticky.ec),
      featured: given(F.featured.ec),
      venues: given(F.venues.ec),
      organizers: given(F.organizers.ec),
      categories: given(F.categories.ec),
      tags: given(F.tags.ec),
      post: postFields(given),
    },
  };
}

/** Creates or updates an event; every check runs before anything is written. */
export async function writeEvent(deps: CalendarDeps, ctx: HandlerContext, current: PostDoc | null): Promise<SavedEvent> {
  const write = ecEventWrite(ctx, deps, current === null);
  const plan = await checkEventWrite(deps, write);
  return saveEvent(deps, write, plan, current);
}

/** The venue or organizer write of an ec/v1 create or update: the entity's fields, then the kind's own (libs/calendar/fields.ts) under their ec/v1 names. */
function linkedInput(ctx: HandlerContext, kind: EcKind, deps: CalendarDeps, create: boolean): LinkedInput {
  const eps = [EC_ENDPOINTS.venues, EC_ENDPOINTS.organizers];
  if (!through(ctx, ...eps.flatMap((e) => [e.create, e.update]))) throw new Error(`ec/v1 ${kind.plural} write bound to ${ctx.req.endpoint}`);
  const given = reader(ctx, ctx.input, create);
  const fields: LinkedInput['fields'] = {};
  for (const [name, field] of fieldEntries(kind.linked!.fields)) {
    const v = field.ec && gives(ctx, ecName(name, field), create) ? ctx.params[ecName(name, field)] : undefined;
    if (typeof v === 'string' || typeof v === 'boolean') fields[name] = v;
  }
  return {
    name: given('title'),
    description: given('content'),
    excerpt: given('excerpt'),
    slug: given('slug'),
    status: given('status'),
    author: given('author'),
    image: given('featured_media'),
    sticky: given('sticky'),
    post: postFields(given),
    dateUtc: postDateUtc(ctx, deps.site.timezone),
    fields,
  };
}

/** Creates (current null) or updates a venue or organizer. */
export async function writeLinked(deps: CalendarDeps, ctx: HandlerContext, kind: EcKind, current: PostDoc | null): Promise<PostDoc> {
  const linked = kind.linked!;
  const create = current === null;
  const input = linkedInput(ctx, kind, deps, create);
  const names: Record<string, string> = { image: 'featured_media', date_utc: 'date' };
  const checked = await checkLinkedInput(deps, ctx.user, input);
  const failures: Array<[string, string]> = checked.failures.map(([n, e]) => [names[n] ?? n, e]);
  const tags = gives(ctx, 'tags', create) ? ctx.input.tags : undefined;
  if (Array.isArray(tags)) {
    const valid = tags.filter((t): t is number => typeof t === 'number');
    input.tags = (await checkTerms(deps, valid, 'tags', TAG_TAXONOMY, failures)).map((t) => ('id' in t ? t.id : 0)).filter((id) => id > 0);
  }
  const failure = paramFailure(failures);
  if (failure) throw failure;

  return (await saveLinked(deps, ctx.user, linked, input, checked.image, current, { dedupe: false })).doc;
}
