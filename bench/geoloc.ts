/**
 * The extended edition's geofence list at 1,000 and 100,000 venues (BENCH_GEO_VENUES, a comma list;
 * BENCH_ONLY=geoloc runs only it): `GET vendor/events/v1/events?geoloc_lat&geoloc_lng` (authenticated,
 * past the guest reply cache) around 20 points near one city, whose geofence (25 miles) holds the same
 * 50 venues and 400 events at every size; the other venues are spread over the rest of the globe with
 * the other 1,600 events. So the answers are alike and the table shows what the number of venues costs:
 * the venues' coordinate index should keep it flat (issue: within ±20 %). One fresh store and one service
 * (EDITION=extended) per size, all running at once; the row is measured on each size in turn, BENCH_REPEAT
 * rounds, starting at the next size each round.
 */
import { DateTime } from 'luxon';
import { COLLECTIONS } from '#libs/data/collections';
import { EVENT_TYPE, VENUE_TYPE, eventMetaChanges, timesToMeta, venueIndex } from '#libs/calendar/meta';
import { newCalendarRecord } from '#libs/calendar/save';
import type { PostDoc } from '#libs/posts/types';
import { openStore } from '#libs/store/index';
import type { BenchEndpoint } from './endpoints';
import { CONNECTIONS, DURATION, randomPort, REPEAT, writeResults } from './options';
import { measureAcross, spreadPct, type RowResult } from './rows';
import type { Seeded } from './seed';
import { startService, type Service } from './service';

const env = process.env;
export const GEO_SIZES = (env.BENCH_GEO_VENUES ?? '1000,100000').split(',').map((s) => Number(s.trim()));
if (GEO_SIZES.some((n) => !Number.isInteger(n) || n < 100))
  throw new Error(`BENCH_GEO_VENUES: a comma list of venue counts of at least 100, not ${env.BENCH_GEO_VENUES}`);

const CENTRE = { lat: 52.52, lng: 13.405 };
/** Venues inside the fence (a grid within ~10 km of the centre), and events at each. */
const NEAR = 50;
const EVENTS_EACH_NEAR = 8;
const EVENTS = 2000;
const CHUNK = 1000;
const SITE = { home: 'http://localhost', timezone: 'UTC' };

/** A point of the rest of the globe, from a venue's index: deterministic, and never within 5° of the centre. */
function farPoint(i: number): { lat: number; lng: number } {
  // A low-discrepancy walk (golden ratio steps) over latitudes ±60 and every longitude.
  const lat = -60 + ((i * 0.6180339887) % 1) * 120;
  let lng = -180 + ((i * 0.7548776662) % 1) * 360;
  if (Math.abs(lat - CENTRE.lat) < 5 && Math.abs(lng - CENTRE.lng) < 5) lng = lng > CENTRE.lng ? lng + 10 : lng - 10;
  return { lat: Number(lat.toFixed(5)), lng: Number(Math.max(-180, Math.min(180, lng)).toFixed(5)) };
}

function record(id: number, type: string, title: string, extra: Partial<PostDoc>): PostDoc {
  return newCalendarRecord(SITE, new Date(Date.UTC(2026, 0, 1)), {
    id,
    type,
    status: 'publish',
    slug: `geo-${type}-${id}`,
    title,
    content: `<p>${title}</p>`,
    author: 1,
    ...extra,
  });
}

/** A fresh store with `venues` venues (NEAR of them around the centre) and EVENTS events linked to them. */
export async function seedGeo(dataDir: string, venues: number): Promise<Seeded> {
  const store = await openStore({ dataDir });
  try {
    await store.ensure(COLLECTIONS);
    const firstVenue = await store.nextId('posts', venues);
    for (let offset = 0; offset < venues; offset += CHUNK) {
      const docs: PostDoc[] = [];
      for (let i = offset; i < Math.min(venues, offset + CHUNK); i++) {
        const at = i < NEAR ? { lat: CENTRE.lat + ((i % 10) - 4.5) * 0.015, lng: CENTRE.lng + (Math.floor(i / 10) - 2) * 0.025 } : farPoint(i);
        const meta = { _VenueCity: i < NEAR ? 'Berlin' : `Elsewhere ${i}`, _VenueLat: String(at.lat), _VenueLng: String(at.lng) };
        docs.push(record(firstVenue + i, VENUE_TYPE, `Geo venue ${i}`, { meta, ...venueIndex(meta) }));
      }
      await store.collection('posts').insertMany(docs);
    }
    const firstEvent = await store.nextId('posts', EVENTS);
    const from = DateTime.utc().plus({ days: 1 }).startOf('hour');
    const docs: PostDoc[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const nearOnes = NEAR * EVENTS_EACH_NEAR;
      const venue = i < nearOnes ? firstVenue + (i % NEAR) : firstVenue + NEAR + ((i * 7919) % (venues - NEAR));
      const start = from.plus({ hours: 5 * i });
      const meta = { ...timesToMeta({ start, end: start.plus({ hours: 2 }), timezone: 'UTC', allDay: false }), _EventVenueID: [venue] };
      docs.push(
        record(firstEvent + i, EVENT_TYPE, `Geo event ${i}`, {
          tax: { vendor_events_cat: [], post_tag: [] },
          terms: [],
          ...eventMetaChanges(null, meta, 'UTC'),
        }),
      );
    }
    for (let i = 0; i < docs.length; i += CHUNK) await store.collection('posts').insertMany(docs.slice(i, i + CHUNK));
    return { counts: { venues, events: EVENTS, 'venues in the fence': NEAR, 'events in the fence': NEAR * EVENTS_EACH_NEAR }, ids: {} };
  } finally {
    await store.close();
  }
}

/** 20 points within a few kilometres of the centre: each fence holds the NEAR venues. */
const POINTS = Array.from({ length: 20 }, (_, k) => ({ lat: CENTRE.lat + ((k % 5) - 2) * 0.01, lng: CENTRE.lng + (Math.floor(k / 5) - 1.5) * 0.01 }));

export const GEOLOC_ROW: BenchEndpoint = {
  name: 'GET vendor/events/v1/events?geoloc_lat&geoloc_lng (authenticated, extended edition)',
  target: 0,
  request: (c) => ({ url: POINTS.map((p) => `${c.rest}/vendor/events/v1/events?geoloc_lat=${p.lat}&geoloc_lng=${p.lng}&per_page=10`), auth: true }),
};

export async function runGeolocBench(): Promise<void> {
  const base = randomPort();
  const services: Service[] = [];
  let rows: RowResult[] = [];
  let peaks: Array<number | null> = [];
  try {
    for (const [k, n] of GEO_SIZES.entries()) {
      services.push(
        await startService(
          { label: `${n} venues, ${EVENTS} events, extended edition`, seed: (dir) => seedGeo(dir, n), env: { EDITION: 'extended' } },
          base + k,
        ),
      );
    }
    rows = await measureAcross(GEOLOC_ROW, services);
  } finally {
    peaks = services.map((s) => s.peakRss());
    for (const s of services) await s.stop();
  }
  const table = GEO_SIZES.map((n, k) => ({
    venues: n,
    'req/s': rows[k]['req/s'],
    'p99 ms': rows[k]['p99 ms'],
    'user µs/req': rows[k]['user µs/req'],
    'sys µs/req': rows[k]['sys µs/req'],
    errors: rows[k].errors,
    'peak RSS MiB': peaks[k],
  }));
  console.log(
    `\n${GEOLOC_ROW.name}: ${EVENTS} events, ${NEAR} venues and ${NEAR * EVENTS_EACH_NEAR} events inside every fence; ${DURATION} s a measurement, ${REPEAT} rounds over the sizes, at ${CONNECTIONS} connections; user µs spread over the sizes ${spreadPct(rows.map((r) => r['user µs/req']))} % (max/min - 1)`,
  );
  console.table(table);
  const file = writeResults('bench-geoloc', { at: new Date().toISOString(), duration: DURATION, repeat: REPEAT, connections: CONNECTIONS, sizes: table });
  console.log(`results written to ${file}`);
}
