/**
 * vendor/views/v2/html: a calendar view rendered as HTML (reference: Views V2 Rest_Endpoint and
 * View::make_for_rest). The permission is a valid `_view_rest` nonce in `tvn1` or `tvn2`; the answer is
 * the rendered view itself as HTML (the reference's View::send_html echoes it and exits), not JSON.
 */
import { DateTime } from 'luxon';
import type { ServiceApp } from '#libs/rest/service';
import { VIEWS_HTML_ENDPOINT } from '#libs/routes/calendar-views';
import { totalPages } from '#libs/rest/paging';
import type { CalendarDeps } from '../deps';
import { viewNonces, viewNonceValid } from '../nonces';
import { loadRelated } from '../related';
import { readViewContext, viewUrl, type ViewContext } from './context';
import { eventsBetween, listEvents, LIST_PER_PAGE } from './query';
import { cardsOf, withDistances } from './cards';
import { byShownStart, renderDay, renderList } from './render';
import { renderMonth } from './month';
import type { ViewState } from './shell';

export function bindViews(app: ServiceApp, deps: CalendarDeps): void {
  const { site, nonces } = deps;
  const mode = deps.timezoneMode ?? 'event';
  const urlOf = (ctx: ViewContext, over: Partial<ViewContext>) => viewUrl(site, { ...ctx, ...over });

  app.bind(VIEWS_HTML_ENDPOINT, {
    async permission(ctx) {
      return viewNonceValid(nonces, ctx.user, ctx.input.tvn1, ctx.input.tvn2);
    },
    async handle(ctx) {
      const now = deps.now();
      const today = DateTime.fromJSDate(now, { zone: site.timezone });
      const read = readViewContext(site, now, { u: ctx.input.u, view: ctx.input.view, view_data: ctx.input.view_data });
      // The free edition has no location search: a place or point in the address is not a filter.
      const view: ViewContext = deps.geofenceKm ? read : { ...read, near: '', nearPoint: undefined };
      const state: ViewState = {
        ctx: view,
        url: viewUrl(site, view),
        prevUrl: '',
        nextUrl: '',
        nonces: viewNonces(nonces, ctx.user),
        near: !!deps.geofenceKm,
        today: today.startOf('day'),
      };
      let html: string;
      if (view.view === 'month') {
        const first = view.date.startOf('month');
        const gridStart = first.minus({ days: first.weekday - 1 });
        const last = first.endOf('month').startOf('day');
        const gridEnd = last.plus({ days: 8 - last.weekday });
        // A day earlier and later: an event shown in its own zone may sit on a grid day its instant is not in.
        const found = await eventsBetween(deps, view, gridStart.minus({ days: 1 }), gridEnd.plus({ days: 1 }));
        const docs = found.items;
        state.linked = found.linked;
        state.unknown = !!found.unknown;
        state.placeUnknown = found.placeUnknown ?? false;
        state.prevUrl = urlOf(view, { date: first.minus({ months: 1 }), dateGiven: true });
        state.nextUrl = urlOf(view, { date: first.plus({ months: 1 }), dateGiven: true });
        const [from, to] = [gridStart.toFormat('yyyy-LL-dd'), gridEnd.minus({ days: 1 }).toFormat('yyyy-LL-dd')];
        const cards = cardsOf(site, docs, await loadRelated(deps, docs), now, mode).filter((c) => c.days.some((d) => d >= from && d <= to));
        html = renderMonth(site, state, byShownStart(cards), today.startOf('day'));
      } else if (view.view === 'day') {
        const found = await eventsBetween(deps, view, view.date.minus({ days: 1 }), view.date.plus({ days: 2 }));
        const docs = found.items;
        state.linked = found.linked;
        state.unknown = !!found.unknown;
        state.placeUnknown = found.placeUnknown ?? false;
        state.prevUrl = urlOf(view, { date: view.date.minus({ days: 1 }), dateGiven: true });
        state.nextUrl = urlOf(view, { date: view.date.plus({ days: 1 }), dateGiven: true });
        const key = view.date.toFormat('yyyy-LL-dd');
        const cards = cardsOf(site, docs, await loadRelated(deps, docs), now, mode).filter((c) => c.days.includes(key));
        html = renderDay(site, state, byShownStart(cards));
      } else {
        const { items, total, unknown: none, linked, nearest, placeUnknown } = await listEvents(deps, view, today);
        state.linked = linked;
        state.unknown = !!none;
        state.placeUnknown = placeUnknown ?? false;
        const pages = totalPages(total, LIST_PER_PAGE);
        // Upcoming: previous leads back to past events, next to later pages. Past: previous is older, next newer.
        if (view.past) {
          state.prevUrl = view.page < pages ? urlOf(view, { page: view.page + 1 }) : '';
          state.nextUrl = view.page > 1 ? urlOf(view, { page: view.page - 1 }) : urlOf(view, { past: false, page: 1 });
        } else {
          state.prevUrl = view.page > 1 ? urlOf(view, { page: view.page - 1 }) : urlOf(view, { past: true, page: 1 });
          state.nextUrl = view.page < pages ? urlOf(view, { page: view.page + 1 }) : '';
        }
        const cards = withDistances(cardsOf(site, items, await loadRelated(deps, items), now, mode), nearest, deps.geoUnit?.() ?? 'miles');
        html = renderList(site, state, cards);
      }
      // A category, tag, venue or organizer that does not exist: the view says so, answered as not found.
      return { ...(state.unknown ? { status: 404 } : {}), body: html, raw: { contentType: 'text/html; charset=UTF-8', text: html } };
    },
  });
}
