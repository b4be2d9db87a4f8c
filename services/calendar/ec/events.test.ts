import { app, create, event, EVENTS, noonEvent, store, useEventsApp } from './events.fixtures';

useEventsApp();

describe('entity', () => {
  it('has the post fields, then the event fields, in the reference order', async () => {
    const venue = await create({ title: 'Main Hall', address: '123 Main St, Anytown, USA' }, '/ec/v1/venues');
    const organizer = await create({ title: 'Test Organizer 1', email: 'test@example.com' }, '/ec/v1/organizers');
    const e = await create({
      title: 'Past Conference 2023',
      content: 'A past conference that already happened.',
      start_date: '2023-01-15 09:00:00',
      end_date: '2023-01-15 17:00:00',
      timezone: 'UTC',
      cost: '$99.00',
      venues: [venue.id],
      organizers: [organizer.id],
    });
    const res = await app.request('GET', `${EVENTS}/${e.id}`);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(Object.keys(b)).toEqual([
      'id',
      'date',
      'date_gmt',
      'guid',
      'modified',
      'modified_gmt',
      'slug',
      'status',
      'type',
      'link',
      'title',
      'content',
      'excerpt',
      'author',
      'featured_media',
      'template',
      'tags',
      'vendor_events_cat',
      'class_list',
      'start_date',
      'start_date_utc',
      'end_date',
      'end_date_utc',
      'dates',
      'timezone',
      'duration',
      'multiday',
      'is_past',
      'is_now',
      'all_day',
      'starts_this_week',
      'ends_this_week',
      'this_week_duration',
      'happens_this_week',
      'displays_on',
      'featured',
      'sticky',
      'cost',
      'organizer_names',
      'organizers',
      'venues',
      'schedule_details',
      'short_schedule_details',
    ]);
    expect(b).toMatchObject({
      slug: 'past-conference-2023',
      status: 'publish',
      type: 'vendor_events',
      link: 'http://example.test/event/past-conference-2023/',
      title: { rendered: 'Past Conference 2023' },
      content: { rendered: '<p>A past conference that already happened.</p>\n', protected: false },
      excerpt: { rendered: '<p>A past conference that already happened.</p>\n', protected: false },
      author: 1,
      featured_media: 0,
      template: '',
      tags: [],
      vendor_events_cat: [],
      class_list: [`post-${e.id}`, 'vendor_events', 'type-vendor_events', 'status-publish', 'hentry'],
      start_date: '2023-01-15 09:00:00',
      start_date_utc: '2023-01-15 09:00:00',
      end_date: '2023-01-15 17:00:00',
      end_date_utc: '2023-01-15 17:00:00',
      timezone: 'UTC',
      duration: '28800',
      multiday: false,
      is_past: true,
      is_now: false,
      all_day: false,
      starts_this_week: false,
      happens_this_week: false,
      this_week_duration: null,
      displays_on: [],
      featured: false,
      sticky: false,
      cost: '$99.00',
      organizer_names: ['Test Organizer 1'],
      schedule_details: '<span class="tribe-event-date-start">January 15, 2023 @ 9:00 am</span> - <span class="tribe-event-time">5:00 pm</span>',
      short_schedule_details: '<span class="tribe-event-date-start">9:00 am</span> - <span class="tribe-event-time">5:00 pm</span>',
    });
    expect(b.dates.start).toEqual({ date: '2023-01-15 09:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(Object.keys(b.dates)).toEqual(['start', 'start_utc', 'start_site', 'start_display', 'end', 'end_utc', 'end_site', 'end_display']);
    expect(b.organizers).toHaveLength(1);
    expect(b.organizers[0]).toMatchObject({
      id: organizer.id,
      type: 'vendor_organizer',
      title: { rendered: 'Test Organizer 1' },
      email: 'test@example.com',
      phone: '',
      website: '',
    });
    expect(b.venues[0]).toMatchObject({
      id: venue.id,
      type: 'vendor_venue',
      address: '123 Main St, Anytown, USA',
      directions_link: 'https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=123+Main+St%2C+Anytown%2C+USA',
    });
    expect(b).not.toHaveProperty('meta');
    expect(b).not.toHaveProperty('_links');
  });

  it('computes dates in the event zone, UTC and the site zone, with the zone abbreviation-free names', async () => {
    const e = await create({ title: 'New York', start_date: '2031-03-10 09:00:00', end_date: '2031-03-10 11:30:00', timezone: 'America/New_York' });
    expect(e).toMatchObject({
      start_date: '2031-03-10 09:00:00',
      start_date_utc: '2031-03-10 13:00:00',
      end_date_utc: '2031-03-10 15:30:00',
      timezone: 'America/New_York',
      duration: '9000',
    });
    expect(e.dates.start).toEqual({ date: '2031-03-10 09:00:00.000000', timezone_type: 3, timezone: 'America/New_York' });
    expect(e.dates.start_utc).toEqual({ date: '2031-03-10 13:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(e.dates.start_site.date).toBe('2031-03-10 13:00:00.000000');
    expect(e.dates.end_display.timezone).toBe('America/New_York');
    const offset = await create({ title: 'Offset', start_date: '2031-03-10 09:00:00', end_date: '2031-03-10 10:00:00', timezone: 'UTC+2' });
    expect(offset.dates.start).toEqual({ date: '2031-03-10 09:00:00.000000', timezone_type: 1, timezone: '+02:00' });
    expect(offset.start_date_utc).toBe('2031-03-10 07:00:00');
  });

  it('multi-day, all-day and happening-now events', async () => {
    const multi = await create({ title: 'Festival', start_date: '2031-08-13 12:00:00', end_date: '2031-08-16 23:00:00' });
    expect(multi.multiday).toBe(4);
    expect(multi.duration).toBe('298800');
    expect(multi.schedule_details).toBe(
      '<span class="tribe-event-date-start">August 13, 2031 @ 12:00 pm</span> - <span class="tribe-event-date-end">August 16, 2031 @ 11:00 pm</span>',
    );
    expect(multi.short_schedule_details).toBe(multi.schedule_details);
    const allDay = await create({ title: 'Cleanup', start_date: '2031-06-27 10:00:00', end_date: '2031-06-27 12:00:00', all_day: true });
    expect(allDay).toMatchObject({
      all_day: true,
      multiday: false,
      start_date: '2031-06-27 00:00:00',
      end_date: '2031-06-27 23:59:59',
      duration: '86399',
      short_schedule_details: 'All day',
    });
    expect(allDay.schedule_details).toBe('<span class="tribe-event-date-start">June 27, 2031</span>');
    const now = await event(0, {}, 3);
    expect(now).toMatchObject({ is_now: true, is_past: false, happens_this_week: true, starts_this_week: true });
    expect(now.this_week_duration).toBeGreaterThanOrEqual(1);
    expect(now.displays_on.length).toBe(now.this_week_duration);
  });

  it('a password-protected event is masked unless its password is given', async () => {
    const e = await noonEvent(5, { cost: '10' });
    await store.collection('posts').updateOne({ id: e.id }, { $set: { password: 'secret' } });
    const masked = (await app.request('GET', `${EVENTS}/${e.id}`)).body;
    expect(masked).toMatchObject({ id: e.id, slug: e.slug, status: 'publish', type: 'vendor_events', title: e.title, author: 1, link: e.link });
    expect(masked.content).toEqual({ rendered: 'Password protected', protected: null });
    expect(masked).toMatchObject({
      featured_media: 0,
      template: 'Password protected',
      start_date: 'Password protected',
      duration: 'Password protected',
      multiday: null,
      featured: null,
      cost: 'Password protected',
    });
    expect(masked.dates.start).toEqual({ date: '1970-01-01 00:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(masked.class_list).toContain('post-password-required');
    const open = (await app.request('GET', `${EVENTS}/${e.id}?password=secret`)).body;
    expect(open.content.protected).toBe(true);
    expect(open.cost).toBe('$10');
    expect(open.class_list).toContain('post-password-protected');
    const listed = (await app.request('GET', EVENTS)).body.find((x: { id: number }) => x.id === e.id);
    expect(listed.cost).toBe('Password protected');
  });
});

describe("guests' answers", () => {
  it('each read of a published entity, one after the other, answers with that entity, and a write shows at once', async () => {
    const a = await event(3, { title: 'First' });
    const b = await event(4, { title: 'Second' });
    for (let round = 0; round < 2; round++) {
      expect((await app.request('GET', `${EVENTS}/${a.id}`)).body.title.rendered).toBe('First');
      expect((await app.request('GET', `${EVENTS}/${b.id}`)).body.title.rendered).toBe('Second');
    }
    expect((await app.admin('PUT', `${EVENTS}/${a.id}`, { body: { title: 'First, renamed' } })).status).toBe(200);
    expect((await app.request('GET', `${EVENTS}/${a.id}`)).body.title.rendered).toBe('First, renamed');
  });
});
