/**
 * ec/v1 writes go through the same write paths as vendor/events/v1, so one record reads the same
 * through both interfaces: an ec/v1 request is presented to them under their argument names
 * (`content` as `description`, `venues` as `venue`, `vendor_events_cat` as `categories`,
 * `featured_media` as `image`, post dates as one UTC date), and their errors name the ec/v1 arguments.
 * Declared defaults (status `publish`, open comments and pings, standard format) apply on create only.
 */
import { DateTime } from 'luxon';
import { ecName, fieldEntries } from '../../../libs/calendar/fields';
import { TAG_TAXONOMY } from '../../../libs/calendar/meta';
import { MYSQL_FORMAT } from '../../../libs/dates/format';
import { parseDateInput } from '../../../libs/dates/post-dates';
import type { PostDoc } from '../../../libs/posts/types';
import type { HandlerContext } from '../../../libs/rest/service';
import type { CalendarDeps } from '../deps';
import { paramFailure } from '../errors';
import { checkEventWrite, checkTerms, saveEvent, type WriteRequest } from '../events/write';
import { keepImage } from '../images';
import { checkLinkedInput, createLinked, updateLinked, type LinkedInput } from '../linked/write';
import type { EcKind } from './kinds';

/** vendor/events/v1 argument → the ec/v1 argument it is read from. */
const EVENT_ARGS: Record<string, string> = {
  title: 'title',
  description: 'content',
  excerpt: 'excerpt',
  slug: 'slug',
  status: 'status',
  author: 'author',
  image: 'featured_media',
  comment_status: 'comment_status',
  ping_status: 'ping_status',
  format: 'format',
  sticky: 'sticky',
  template: 'template',
  tags: 'tags',
  categories: 'vendor_events_cat',
  start_date: 'start_date',
  start_date_utc: 'start_date_utc',
  end_date: 'end_date',
  end_date_utc: 'end_date_utc',
  timezone: 'timezone',
  duration: 'duration',
  all_day: 'all_day',
  featured: 'featured',
  cost: 'cost',
  organizer: 'organizers',
  venue: 'venues',
};

/** Arguments whose declared default is written on create. */
const CREATE_DEFAULTS = ['status', 'comment_status', 'ping_status', 'format', 'sticky'];

/** The post date a request sets (`date_gmt` in UTC, else `date` in the site time zone), as `Y-m-d H:i:s` UTC. */
function postDateUtc(ctx: HandlerContext, zone: string): string | undefined {
  const given = (n: string) => (ctx.has(n) ? ctx.args.str(n) : undefined);
  const dateGmt = given('date_gmt');
  const date = given('date');
  const parsed = dateGmt !== undefined ? parseDateInput(dateGmt, zone, true) : date !== undefined ? parseDateInput(date, zone) : null;
  return parsed ? DateTime.fromJSDate(parsed.gmt, { zone: 'UTC' }).toFormat(MYSQL_FORMAT) : undefined;
}

/** Whether the request gives an ec/v1 argument a value (or, on create, its declared default does). */
function gives(ctx: HandlerContext, name: string, create: boolean): boolean {
  const v = ctx.params[name];
  if (v === undefined || v === null) return false;
  return ctx.has(name) || (create && CREATE_DEFAULTS.includes(name));
}

/** The request as the vendor/events/v1 event write reads it. */
export function eventWriteRequest(ctx: HandlerContext, deps: CalendarDeps, create: boolean): WriteRequest {
  const dateUtc = postDateUtc(ctx, deps.site.timezone);
  return {
    user: ctx.user,
    has: (name) => (name === 'date_utc' ? dateUtc !== undefined : name in EVENT_ARGS && gives(ctx, EVENT_ARGS[name], create)),
    get: (name) => (name === 'date_utc' ? dateUtc : name in EVENT_ARGS ? ctx.params[EVENT_ARGS[name]] : undefined),
    argName: (name) => EVENT_ARGS[name] ?? (name === 'date_utc' ? 'date' : name),
  };
}

/** Creates or updates an event; every check runs before anything is written. */
export async function writeEvent(deps: CalendarDeps, ctx: HandlerContext, current: PostDoc | null): Promise<PostDoc> {
  const req = eventWriteRequest(ctx, deps, current === null);
  const plan = await checkEventWrite(deps, req);
  return saveEvent(deps, req, plan, current);
}

/** ec/v1 entity fields → the vendor/events/v1 venue or organizer input they are stored from. */
const LINKED_ARGS: Record<string, string> = {
  content: 'description',
  excerpt: 'excerpt',
  slug: 'slug',
  status: 'status',
  author: 'author',
  featured_media: 'image',
  comment_status: 'comment_status',
  ping_status: 'ping_status',
  format: 'format',
  sticky: 'sticky',
  template: 'template',
};

/** Creates (current null) or updates a venue or organizer. */
export async function writeLinked(deps: CalendarDeps, ctx: HandlerContext, kind: EcKind, current: PostDoc | null): Promise<PostDoc> {
  const linked = kind.linked!;
  const create = current === null;
  const input: LinkedInput = {};
  if (gives(ctx, 'title', create)) input[linked.key] = ctx.params.title;
  for (const [ec, v1] of Object.entries(LINKED_ARGS)) if (gives(ctx, ec, create)) input[v1] = ctx.params[ec];
  for (const [v1, field] of fieldEntries(linked.fields)) if (field.ec && gives(ctx, ecName(v1, field), create)) input[v1] = ctx.params[ecName(v1, field)];
  const dateUtc = postDateUtc(ctx, deps.site.timezone);
  if (dateUtc !== undefined) input.date_utc = dateUtc;

  const names: Record<string, string> = { image: 'featured_media', date_utc: 'date' };
  const checked = await checkLinkedInput(deps, ctx.user, input);
  const failures: Array<[string, string]> = checked.failures.map(([n, e]) => [names[n] ?? n, e]);
  if (gives(ctx, 'tags', create)) {
    const tagRequest: WriteRequest = { user: ctx.user, has: (n) => n === 'tags', get: () => ctx.params.tags };
    input.tags = (await checkTerms(deps, tagRequest, 'tags', TAG_TAXONOMY, failures)).map((t) => ('id' in t ? t.id : 0)).filter((id) => id > 0);
  }
  const failure = paramFailure(failures);
  if (failure) throw failure;

  // The record and the tag counts it moves are one unit of work; a fetched image is kept before it.
  const image = checked.image && (await keepImage(deps, ctx.user, checked.image));
  return deps.store.unit(async () => {
    const saved = current
      ? await updateLinked(deps, ctx.user, linked, current, input, image)
      : (await createLinked(deps, ctx.user, linked, input, image, { dedupe: false })).doc;
    // A venue's or organizer's tags count it while it is published, whatever changed.
    await deps.terms.countWrite(current, saved);
    return saved;
  });
}
