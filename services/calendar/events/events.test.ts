import { startTestApp } from '../../../test/support/app';
import { DateTime } from 'luxon';
import { app, create, EVENTS, store, users, useEventsApp } from './events.fixtures';

useEventsApp();

describe('create', () => {
  it('creates an event with the reference record shape (201)', async () => {
    const res = await create({ slug: 'an-event', description: 'Event 01 description', excerpt: 'Short', cost: '23', website: 'http://tri.be' });
    expect(res.status).toBe(201);
    const e = res.body;
    expect(Object.keys(e)).toEqual([
      'id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'rest_url',
      'title',
      'description',
      'excerpt',
      'slug',
      'image',
      'all_day',
      'start_date',
      'start_date_details',
      'end_date',
      'end_date_details',
      'utc_start_date',
      'utc_start_date_details',
      'utc_end_date',
      'utc_end_date_details',
      'timezone',
      'timezone_abbr',
      'cost',
      'cost_details',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'categories',
      'tags',
      'venue',
      'organizer',
      'custom_fields',
    ]);
    expect(e).toMatchObject({
      global_id: `example.test?id=${e.id}`,
      author: '1',
      status: 'publish',
      url: 'http://example.test/event/an-event/',
      rest_url: `http://example.test/index.php/cms-json/vendor/events/v1/events/${e.id}`,
      title: 'An event',
      description: '<p>Event 01 description</p>',
      excerpt: '<p>Short</p>',
      slug: 'an-event',
      image: false,
      all_day: false,
      start_date: '2031-05-01 18:00:00',
      end_date: '2031-05-01 20:00:00',
      utc_start_date: '2031-05-01 22:00:00',
      utc_end_date: '2031-05-02 00:00:00',
      start_date_details: { year: '2031', month: '05', day: '01', hour: '18', minutes: '00', seconds: '00' },
      timezone: 'America/New_York',
      timezone_abbr: 'EDT',
      cost: '$23',
      website: 'http://tri.be',
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
    });
    expect(e.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(e).not.toHaveProperty('json_ld');
  });

  it('reads relative English in the site time zone, and an explicit timezone overrides it', async () => {
    for (const zone of ['America/New_York', 'America/Juneau', 'Australia/Sydney', 'Atlantic/Reykjavik']) {
      const site = zone === 'America/New_York' ? app : await startTestApp({ SITE_TIMEZONE: zone });
      try {
        const res = await site.admin('POST', EVENTS, { body: { title: 'Relative', start_date: 'tomorrow 9am', end_date: 'next wednesday 4pm' } });
        expect(res.status).toBe(201);
        const today = DateTime.now().setZone(zone).startOf('day');
        const start = today.plus({ days: 1 }).set({ hour: 9 });
        const wed = today.plus({ days: (3 - today.weekday + 7) % 7 || 7 }).set({ hour: 16 });
        expect(res.body.start_date).toBe(start.toFormat('yyyy-LL-dd HH:mm:ss'));
        expect(res.body.utc_start_date).toBe(start.toUTC().toFormat('yyyy-LL-dd HH:mm:ss'));
        expect(res.body.end_date).toBe(wed.toFormat('yyyy-LL-dd HH:mm:ss'));
        expect(res.body.timezone).toBe(zone);
      } finally {
        if (site !== app) await site.close();
      }
    }
    const darwin = await create({ timezone: 'Australia/Darwin' });
    expect(darwin.body).toMatchObject({
      timezone: 'Australia/Darwin',
      timezone_abbr: 'ACST',
      start_date: '2031-05-01 18:00:00',
      utc_start_date: '2031-05-01 08:30:00',
    });
  });

  it('all_day spans whole days, over several days too', async () => {
    const one = await create({ all_day: true, start_date: '2031-06-01 10:00', end_date: '2031-06-01 12:00' });
    expect(one.body).toMatchObject({ all_day: true, start_date: '2031-06-01 00:00:00', end_date: '2031-06-01 23:59:59' });
    const multi = await create({ all_day: 'true', start_date: '2031-06-01', end_date: '2031-06-03' });
    expect(multi.body).toMatchObject({ start_date: '2031-06-01 00:00:00', end_date: '2031-06-03 23:59:59' });
  });

  it('refuses missing or bad required fields', async () => {
    const missing = await app.admin('POST', EVENTS, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['title', 'start_date', 'end_date'] } });
    for (const bad of [{ title: '' }, { start_date: '' }, { end_date: 'before my birthday' }]) {
      const res = await create(bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual(Object.keys(bad));
    }
  });

  it('refuses bad optional fields and stores nothing', async () => {
    const before = await store.collection('posts').count({ type: 'vendor_events' });
    for (const bad of [
      { author: 23 },
      { author: '' },
      { date: 'foo' },
      { date_utc: 'foo' },
      { website: 'foo' },
      { status: 'kinda_thinking_about_it' },
      { timezone: 'Mars/Olympus' },
      { image: 'foo bar' },
      { image: 23 },
    ]) {
      const res = await create(bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    expect(await store.collection('posts').count({ type: 'vendor_events' })).toBe(before);
  });

  it('sets author, publication dates, and ignores read-only fields', async () => {
    const res = await create({
      author: users.ids.editor,
      date: '2020-01-02 03:04:05',
      url: 'http://evil.test/',
      rest_url: 'x',
      utc_start_date: '1999-01-01 00:00:00',
      timezone_abbr: 'XYZ',
      cost_details: { values: [1] },
    });
    expect(res.body).toMatchObject({
      author: String(users.ids.editor),
      date: '2020-01-02 03:04:05',
      date_utc: '2020-01-02 08:04:05',
      utc_start_date: '2031-05-01 22:00:00',
      timezone_abbr: 'EDT',
    });
    expect(res.body.url).toBe(`http://example.test/event/${res.body.slug}/`);
    const utc = await create({ date_utc: '2020-01-02 03:04:05' });
    expect(utc.body).toMatchObject({ date: '2020-01-01 22:04:05', date_utc: '2020-01-02 03:04:05' });
  });

  it('formats cost, falls back to the permalink for website, and echoes the presentation flags', async () => {
    const postfix = await create({ cost: '20$' });
    expect(postfix.body.cost).toBe('20$');
    expect(postfix.body.cost_details).toEqual({ currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] });
    const list = await create({ cost: ['0$', '20$', '30$'] });
    expect(list.body.cost).toBe('Free – 30$');
    expect(list.body.cost_details.values).toEqual(['0', '20', '30']);
    const flags = await create({ show_map: false, show_map_link: 'false', hide_from_listings: true, sticky: true, featured: 'true' });
    expect(flags.body).toMatchObject({
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      website: flags.body.url,
    });
    const stored = await store.collection('posts').findOne({ id: flags.body.id });
    expect(stored!.meta).toMatchObject({ _EventHideFromUpcoming: 'yes', _vendor_featured: true });
    expect(stored).toMatchObject({ menu_order: -1, featured: true, hide_from_listings: true });
    const notHidden = await create({ hide_from_listings: 'false' });
    expect(notHidden.body.hide_from_listings).toBe(false);
    expect((await store.collection('posts').findOne({ id: notHidden.body.id }))!.meta).not.toHaveProperty('_EventHideFromUpcoming');
  });

  it('makes slugs unique and keeps its meta under the interface keys', async () => {
    const a = await create({ title: 'Same title' });
    const b = await create({ title: 'Same title' });
    expect([a.body.slug, b.body.slug]).toEqual(['same-title', 'same-title-2']);
    const stored = await store.collection('posts').findOne({ id: a.body.id });
    expect(stored).toMatchObject({ type: 'vendor_events', event_start: new Date('2031-05-01T22:00:00Z'), event_end: new Date('2031-05-02T00:00:00Z') });
    expect(stored!.meta).toMatchObject({
      _EventStartDate: '2031-05-01 18:00:00',
      _EventEndDate: '2031-05-01 20:00:00',
      _EventStartDateUTC: '2031-05-01 22:00:00',
      _EventEndDateUTC: '2031-05-02 00:00:00',
      _EventTimezone: 'America/New_York',
      _EventAllDay: false,
    });
  });
});
