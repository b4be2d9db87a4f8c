/**
 * The single event page (the reference's single-event template): title, date and time in the event's
 * own zone with the zone named, cost, categories and tags (linked to the calendar's filtered views),
 * the description as stored, venue with its address and directions, organizers with their contact,
 * featured image, add-to-calendar links, the previous and next events, and the event's JSON-LD. The
 * related records come from one query for the linked posts and one for the terms (../related.ts);
 * the neighbours from one query each. A password-protected event shows only its title and says so.
 */
import { CATEGORY_TAXONOMY, EVENT_META, TAG_TAXONOMY, truthyMeta } from '#libs/calendar/meta';
import { eventTimes } from '#libs/calendar/times';
import { decodeEntities, escapeHtml as esc } from '#libs/html/escape';
import { permalinkOf } from '#libs/posts/permalink';
import { renderContent, stripAllTags, trimWords } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import { restUrl } from '#libs/rest/site';
import type { Filter } from '#libs/store/types';
import { loadTermAncestors, termLink } from '#libs/terms/link';
import type { CalendarDeps } from '../deps';
import { eventFilter } from '../event-query';
import { loadRelated, type Related } from '../related';
import { cardsOf, type Card } from '../views/cards';
import { jsonLd } from '../views/shell';
import { addToCalendar } from './add-to-calendar';
import { contactRows, directionsUrl, imageHtml, isWebUrl, metaList, metaText, plainTitle, titleHtml, venueAddress, whenHtml, type PageAnswer } from './common';

export const CALENDAR_HOME = '/events/';

/** The previous and next published, listed events by start (the id orders events that start together). */
async function neighbours(deps: CalendarDeps, doc: PostDoc, start: Date): Promise<{ prev?: PostDoc; next?: PostDoc }> {
  const listed = eventFilter({ status: { status: 'publish' }, listedOnly: true });
  const side = (dir: 1 | -1): Filter => {
    const op = dir === 1 ? '$gt' : '$lt';
    return { $and: [listed, { $or: [{ event_start: { [op]: start } }, { event_start: start, id: { [op]: doc.id } }] }] };
  };
  const [prev, next] = await Promise.all(
    ([-1, 1] as const).map((dir) =>
      deps.posts.find(side(dir), {
        sort: [
          ['event_start', dir],
          ['id', dir],
        ],
        limit: 1,
      }),
    ),
  );
  return { prev: prev[0], next: next[0] };
}

async function termLinks(deps: CalendarDeps, doc: PostDoc, related: Related): Promise<{ categories: string; tags: string }> {
  const cats = (doc.tax?.[CATEGORY_TAXONOMY] ?? []).map((id) => related.terms.get(id)).filter((t) => !!t);
  const tags = (doc.tax?.[TAG_TAXONOMY] ?? []).map((id) => related.terms.get(id)).filter((t) => !!t);
  const parents = cats.some((c) => c.parent > 0) ? await loadTermAncestors(deps.terms, cats) : undefined;
  const home = deps.site.home;
  const link = (href: string, name: string, rel: string) => `<a href="${esc(href)}" rel="${rel}">${esc(plainTitle(name))}</a>`;
  return {
    categories: cats.map((c) => link(termLink(deps.site, c, parents), c.name, 'tag')).join(', '),
    tags: tags.map((t) => link(`${home}/events/tag/${encodeURIComponent(t.slug)}/`, t.name, 'tag')).join(', '),
  };
}

function venueSection(deps: CalendarDeps, doc: PostDoc, related: Related): string {
  const venue = (doc.venues ?? []).map((id) => related.posts.get(id)).find((p) => p && p.status === 'publish');
  if (!venue) return '';
  const address = venueAddress(venue);
  const showMapLink = EVENT_META.showMapLink in (doc.meta ?? {}) ? truthyMeta(doc.meta[EVENT_META.showMapLink]) : true;
  const directions = showMapLink ? directionsUrl(venue) : '';
  return (
    `<section class="calendar-single__section calendar-single__venue" aria-labelledby="event-venue"><h2 id="event-venue">Venue</h2>` +
    `<p class="calendar-single__venue-name"><a href="${esc(permalinkOf(deps.site, venue))}">${titleHtml(venue.title)}</a></p>` +
    (address ? `<address class="calendar-single__address">${esc(address)}</address>` : '') +
    (directions
      ? `<p><a class="calendar-single__directions" href="${esc(directions)}" rel="external">Get directions<span class="tribe-common-a11y-visual-hide"> to ${titleHtml(venue.title)}</span></a></p>`
      : '') +
    metaList(contactRows(venue, 'venue')) +
    `</section>`
  );
}

function organizersSection(deps: CalendarDeps, doc: PostDoc, related: Related): string {
  const orgs = (doc.organizers ?? []).map((id) => related.posts.get(id)).filter((p): p is PostDoc => !!p && p.status === 'publish');
  if (!orgs.length) return '';
  const items = orgs
    .map(
      (o) =>
        `<li><p class="calendar-single__organizer-name"><a href="${esc(permalinkOf(deps.site, o))}">${titleHtml(o.title)}</a></p>${metaList(contactRows(o, 'organizer'))}</li>`,
    )
    .join('');
  return `<section class="calendar-single__section calendar-single__organizers" aria-labelledby="event-organizers"><h2 id="event-organizers">${orgs.length > 1 ? 'Organizers' : 'Organizer'}</h2><ul class="calendar-single__organizer-list">${items}</ul></section>`;
}

function neighbourNav(deps: CalendarDeps, prev?: PostDoc, next?: PostDoc): string {
  if (!prev && !next) return '';
  const item = (dir: 'prev' | 'next', p: PostDoc | undefined) =>
    p
      ? `<li class="calendar-single__nav-item calendar-single__nav-item--${dir}"><a href="${esc(permalinkOf(deps.site, p))}" rel="${dir}"><span class="calendar-single__nav-label">${dir === 'prev' ? '‹ Previous event' : 'Next event ›'}</span> ${titleHtml(p.title)}</a></li>`
      : `<li class="calendar-single__nav-item calendar-single__nav-item--${dir}"></li>`;
  return `<nav class="calendar-single__nav" aria-label="Previous and next events"><ul>${item('prev', prev)}${item('next', next)}</ul></nav>`;
}

/** The way back to the calendar. */
export const backLink = (home: string): string => `<p class="calendar-single__back"><a href="${esc(home)}${CALENDAR_HOME}">‹ All events</a></p>`;

/** The page of a protected event: its title, and that its details are protected. */
function protectedPage(deps: CalendarDeps, doc: PostDoc): PageAnswer {
  const title = plainTitle(doc.title);
  return {
    id: doc.id,
    title,
    url: permalinkOf(deps.site, doc),
    head: '<meta name="robots" content="noindex">',
    html:
      `<article class="calendar-single calendar-single--protected">${backLink(deps.site.home)}<h1 class="calendar-single__title">${esc(title)}</h1>` +
      `<p class="calendar-single__protected" role="note">This event is password protected: its details are shown to those who have its password.</p></article>`,
    public: true,
  };
}

export async function eventPage(deps: CalendarDeps, doc: PostDoc): Promise<PageAnswer> {
  if (doc.password) return protectedPage(deps, doc);
  const { site } = deps;
  const related = await loadRelated(deps, [doc]);
  const card: Card | undefined = cardsOf(site, [doc], related, deps.now())[0];
  const title = plainTitle(doc.title);
  const url = permalinkOf(site, doc);
  const abbr = eventTimes(doc.meta ?? {}, site.timezone, { stored: 'dates' })?.abbr ?? '';
  const [{ prev, next }, terms] = await Promise.all([
    card ? neighbours(deps, doc, card.start.toJSDate()) : Promise.resolve({} as { prev?: PostDoc; next?: PostDoc }),
    termLinks(deps, doc, related),
  ]);
  const website = metaText(doc.meta, EVENT_META.url);
  const rows = [
    card ? `<dt>When</dt><dd>${whenHtml(card.start, card.end, card.allDay, abbr)}</dd>` : '',
    card?.cost ? `<dt>Cost</dt><dd class="calendar-single__cost">${card.cost}</dd>` : '',
    terms.categories ? `<dt>Categories</dt><dd>${terms.categories}</dd>` : '',
    terms.tags ? `<dt>Tags</dt><dd>${terms.tags}</dd>` : '',
    website && isWebUrl(website) ? `<dt>Website</dt><dd><a href="${esc(website)}" rel="external">${esc(website)}</a></dd>` : '',
  ].join('');
  const description = renderContent(doc.content ?? '');
  const venue = card?.venue;
  const location = venue ? decodeEntities([venue.plain, ...Object.values(venue.parts).filter(Boolean)].join(', ')) : '';
  const details = trimWords(decodeEntities(stripAllTags(doc.excerpt || doc.content || '')), 40, '…');
  const html =
    `<article class="calendar-single calendar-single--event">` +
    backLink(site.home) +
    `<h1 class="calendar-single__title">${esc(title)}</h1>` +
    (card ? `<p class="calendar-single__when">${whenHtml(card.start, card.end, card.allDay, abbr)}</p>` : '') +
    imageHtml(doc, related.posts, title) +
    (description ? `<div class="calendar-single__description">${description}</div>` : '') +
    (card
      ? addToCalendar({
          title,
          start: card.start,
          end: card.end,
          allDay: card.allDay,
          details,
          location,
          ical: doc.slug ? `${url}ical/` : restUrl(site, `/vendor/events/v1/events/${doc.id}/ical`),
        })
      : '') +
    `<section class="calendar-single__section calendar-single__details" aria-labelledby="event-details"><h2 id="event-details">Details</h2><dl class="calendar-single__meta">${rows}</dl></section>` +
    venueSection(deps, doc, related) +
    organizersSection(deps, doc, related) +
    neighbourNav(deps, prev, next) +
    `</article>`;
  return { id: doc.id, title, url, head: card ? jsonLd([card]) : '', html, public: true };
}
