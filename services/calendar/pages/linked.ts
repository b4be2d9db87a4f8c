/**
 * A venue's or an organizer's page (the reference's single venue and organizer templates): name,
 * address and directions (venues), contact, description, featured image, the record's JSON-LD and its
 * upcoming events as the public calendar lists them (published, listed, not password-protected), read
 * in one query through the calendar's event filter (the venues/organizers side table).
 */
import { escapeHtml as esc } from '#libs/html/escape';
import { permalinkOf } from '#libs/posts/permalink';
import { renderContent } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import type { CalendarDeps } from '../deps';
import { eventFilter } from '../event-query';
import { organizerJsonLd, venueJsonLd } from '../linked/present';
import { EMPTY_RELATED, loadRelatedIds } from '../related';
import { cardsOf } from '../views/cards';
import { scriptJson } from '../views/shell';
import { contactRows, directionsUrl, imageHtml, metaList, plainTitle, titleHtml, venueAddress, whenHtml, type PageAnswer } from './common';
import { backLink } from './event';
import { eventTimes } from '#libs/calendar/times';

/** Most upcoming events a venue or organizer page lists. */
export const UPCOMING_LIMIT = 50;

async function upcoming(deps: CalendarDeps, kind: 'venue' | 'organizer', doc: PostDoc): Promise<string> {
  const filter = eventFilter({
    status: { status: 'publish' },
    listedOnly: true,
    endsAfter: deps.now(),
    ...(kind === 'venue' ? { venues: [doc.id] } : { organizers: [doc.id] }),
  });
  const events = await deps.posts.find(
    { $and: [filter, { password: '' }] },
    {
      sort: [
        ['event_start', 1],
        ['id', 1],
      ],
      limit: UPCOMING_LIMIT,
    },
  );
  const heading = `<h2 id="upcoming-events">Upcoming events</h2>`;
  if (!events.length)
    return `<section class="calendar-single__section" aria-labelledby="upcoming-events">${heading}<p>There are no upcoming events.</p></section>`;
  // The cards need no related records here: only each event's own times and title are printed.
  const cards = cardsOf(deps.site, events, EMPTY_RELATED, deps.now());
  const items = cards
    .map((c) => {
      const abbr = eventTimes(c.doc.meta ?? {}, deps.site.timezone, { stored: 'dates' })?.abbr ?? '';
      return `<li class="calendar-single__event"><a class="calendar-single__event-link" href="${esc(c.url)}">${titleHtml(c.doc.title)}</a><p class="calendar-single__event-when">${whenHtml(c.start, c.end, c.allDay, abbr)}</p></li>`;
    })
    .join('');
  return `<section class="calendar-single__section" aria-labelledby="upcoming-events">${heading}<ul class="calendar-single__events">${items}</ul></section>`;
}

export async function linkedPage(deps: CalendarDeps, kind: 'venue' | 'organizer', doc: PostDoc): Promise<PageAnswer> {
  const { site } = deps;
  const title = plainTitle(doc.title);
  const url = permalinkOf(site, doc);
  const head = `<h1 class="calendar-single__title"><span class="calendar-single__kind">${kind === 'venue' ? 'Venue' : 'Organizer'}</span> ${esc(title)}</h1>`;
  if (doc.password) {
    return {
      id: doc.id,
      title,
      url,
      head: '<meta name="robots" content="noindex">',
      html: `<article class="calendar-single calendar-single--protected">${backLink(site.home)}${head}<p class="calendar-single__protected" role="note">This ${kind} is password protected: its details are shown to those who have its password.</p></article>`,
      public: true,
    };
  }
  const images = doc.featured_media ? (await loadRelatedIds(deps, new Set([doc.featured_media]), new Set())).posts : new Map<number, PostDoc>();
  const address = kind === 'venue' ? venueAddress(doc) : '';
  const directions = kind === 'venue' ? directionsUrl(doc) : '';
  const description = renderContent(doc.content ?? '');
  const contact = contactRows(doc, kind);
  const html =
    `<article class="calendar-single calendar-single--${kind}">` +
    backLink(site.home) +
    head +
    (address ? `<address class="calendar-single__address">${esc(address)}</address>` : '') +
    (directions
      ? `<p><a class="calendar-single__directions" href="${esc(directions)}" rel="external">Get directions<span class="tribe-common-a11y-visual-hide"> to ${esc(title)}</span></a></p>`
      : '') +
    metaList(contact) +
    imageHtml(doc, images, title) +
    (description ? `<div class="calendar-single__description">${description}</div>` : '') +
    (await upcoming(deps, kind, doc)) +
    `</article>`;
  const ld = kind === 'venue' ? venueJsonLd(doc, site) : organizerJsonLd(doc, site);
  return { id: doc.id, title, url, head: `<script type="application/ld+json">${scriptJson(ld)}</script>`, html, public: true };
}
