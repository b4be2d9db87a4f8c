/**
 * The read side of the authorization matrix: records a guest or a subscriber may not read (drafts,
 * pending, scheduled, private, trashed posts, pages, events, venues and organizers) never show through
 * any read channel: lists (default, `status=`, `search=`, `include=`, `slug=`, `_fields`, `_embed`),
 * the search route, single reads, revisions, autosaves, comments, media, oEmbed, the calendar views'
 * HTML, paging totals and term counts. Every hidden record carries a unique word in its title, content,
 * excerpt and slug; no answer to a guest or a subscriber may contain one. Password-protected records
 * are listed with their content and excerpt blanked, and shown with the right `?password=`.
 *
 * Every role against calendar records of every owner in every state: test/read-leaks-roles.test.ts.
 *
 * Runs on the embedded store and on MongoDB.
 */
import { EVENT_DAY, HIDDEN_STATUSES, READERS, readLeaksKit } from './support/read-leaks';
import { appStores } from './support/app';

// Each test walks every role through hundreds of requests; on a loaded 2-core machine the MongoDB-wire
// test server makes that minutes, not seconds. The bound is for a hang, not a speed check.
jest.setTimeout(300_000);
describe.each(appStores('authz_reads'))('authorization matrix, read side (%s)', (storeName, env) => {
  const k = readLeaksKit(storeName, env);
  const { finish, fx, read, refusal, secrets, tally, total, wrong } = k;

  it('posts and pages: lists, filters, search, include, slug, _fields, _embed and totals show only published records', async () => {
    for (const who of READERS) {
      for (const base of ['posts', 'pages'] as const) {
        const hidden = Object.values(fx[base]);
        const published = total(await k.app.admin('GET', `/cms/v2/${base}?status=publish&per_page=1`));
        for (const q of [
          '',
          '?per_page=100',
          '?_embed',
          '?_fields=id,title,content,excerpt,slug,link',
          '?status=publish',
          '?context=embed',
          '?orderby=title&order=asc',
          '?_embed=author,replies,wp:term',
        ]) {
          const res = await read(who, `/cms/v2/${base}${q}`, `${base} lists`, 200);
          if (total(res) !== published) wrong.push(`${who} ${base}${q}: X-WP-Total ${total(res)}, published ${published}`);
        }
        await read(who, `/cms/v2/${base}?include=${hidden.map((h) => h.id).join(',')}`, `${base} lists`, 200).then(
          (r) => r.body.length && wrong.push(`${who} ${base} include: ${r.body.length} records`),
        );
        for (const h of hidden) {
          await read(who, `/cms/v2/${base}?search=${h.word}`, `${base} search`, 200).then(
            (r) => total(r) && wrong.push(`${who} ${base} search ${h.word}: total ${total(r)}`),
          );
          await read(who, `/cms/v2/${base}?slug=${h.slug}`, `${base} slug`, 200).then((r) => r.body.length && wrong.push(`${who} ${base} slug ${h.slug}`));
          await read(who, `/cms/v2/${base}?search=${h.word}&orderby=relevance`, `${base} search`, 200);
        }
        for (const status of [...HIDDEN_STATUSES, 'any', 'publish,draft'])
          await read(who, `/cms/v2/${base}?status=${status}`, `${base} status filter`, 400, 'rest_invalid_param');
        await read(who, `/cms/v2/${base}?context=edit`, `${base} lists`, refusal(who), 'rest_forbidden_context');
      }
      // A guest cannot find protected records by words of their content; a signed-in reader may find
      // them (as the reference's search does) but never sees that content.
      const pw = await read(who, `/cms/v2/posts?search=${fx.protectedPost.word}`, 'posts search', 200);
      if (who === 'guest' && total(pw) !== 0) wrong.push(`guest finds the protected post by its content: ${total(pw)}`);
    }
    finish();
  });

  it('single reads, revisions and autosaves of hidden posts and pages are refused', async () => {
    for (const who of READERS) {
      for (const base of ['posts', 'pages'] as const) {
        for (const [status, h] of Object.entries(fx[base])) {
          for (const q of ['', '?_embed', '?_fields=id,title', '?context=embed'])
            await read(who, `/cms/v2/${base}/${h.id}${q}`, `${base} single (${status})`, refusal(who), 'rest_forbidden');
          // The reference compares a given password before reading rights: these records have none, so any is wrong.
          await read(who, `/cms/v2/${base}/${h.id}?password=sesame`, `${base} single (${status})`, 403, 'rest_post_incorrect_password');
          await read(who, `/cms/v2/${base}/${h.id}/revisions`, `${base} revisions`, refusal(who), 'rest_cannot_read');
          await read(who, `/cms/v2/${base}/${h.id}/autosaves`, `${base} autosaves`, refusal(who), 'rest_cannot_read');
          const rev = (await k.app.admin('GET', `/cms/v2/${base}/${h.id}/revisions`)).body;
          if (Array.isArray(rev) && rev[0])
            await read(who, `/cms/v2/${base}/${h.id}/revisions/${rev[0].id}`, `${base} revisions`, refusal(who), 'rest_cannot_read');
        }
        const open = base === 'posts' ? fx.publishedPost : fx.publishedPage;
        await read(who, `/cms/v2/${base}/${open}/revisions`, `${base} revisions`, refusal(who), 'rest_cannot_read');
      }
    }
    finish();
  });

  it('password-protected posts: content and excerpt blanked without the password, shown with it', async () => {
    const { id, word } = fx.protectedPost;
    for (const who of READERS) {
      for (const path of [
        `/cms/v2/posts/${id}`,
        `/cms/v2/posts?include=${id}`,
        `/cms/v2/posts/${id}?_fields=content,excerpt`,
        `/cms/v2/posts?include=${id}&_embed`,
      ]) {
        const res = await read(who, path, 'password-protected', 200);
        const item = Array.isArray(res.body) ? res.body[0] : res.body;
        if (item?.content?.rendered !== '' || item?.content?.protected !== true) wrong.push(`${who} ${path}: content ${JSON.stringify(item?.content)}`);
        if (item?.excerpt?.rendered !== '' || item?.excerpt?.protected !== true) wrong.push(`${who} ${path}: excerpt ${JSON.stringify(item?.excerpt)}`);
      }
      const open = await read(who, `/cms/v2/posts/${id}?password=sesame`, 'password-protected', 200, undefined, [word]);
      if (!String(open.body.content?.rendered).includes(word) || open.body.content?.protected !== true)
        wrong.push(`${who}: the right password does not show the content`);
      await read(who, `/cms/v2/posts/${id}?password=wrong`, 'password-protected', 403, 'rest_post_incorrect_password');
      // The content is not reachable by embedding either.
      await read(who, `/cms/v2/search?search=Locked&_embed`, 'password-protected', 200);
    }
    finish();
  });

  it('the search route, comments, media and users show nothing of hidden records', async () => {
    for (const who of READERS) {
      for (const word of secrets) {
        const res = await read(who, `/cms/v2/search?search=${word}`, 'cms/v2 search', 200);
        if (res.body.length && !(who === 'subscriber' && word === fx.protectedPost.word)) wrong.push(`${who} search ${word}: ${res.body.length} results`);
        if (who === 'guest' && total(res) !== 0) wrong.push(`guest search ${word}: X-WP-Total ${total(res)}`);
        await read(who, `/cms/v2/search?search=${word}&subtype=page`, 'cms/v2 search', 200);
      }
      await read(who, '/cms/v2/search?search=Hidden&_embed&per_page=100', 'cms/v2 search', 200);
      await read(who, '/cms/v2/search?search=Hidden&type=term', 'cms/v2 search', 200);
      await read(who, '/cms/v2/comments?per_page=100', 'comments', 200);
      // Only the open remark is there to see, and to count.
      for (const q of ['?per_page=100', '?search=remark', `?post=${fx.publishedPost}`]) {
        const res = await read(who, `/cms/v2/comments${q}`, 'comments', 200);
        if (total(res) !== 1 || res.body.length !== 1) wrong.push(`${who} comments${q}: X-WP-Total ${total(res)}, shown ${res.body.length}`);
      }
      await read(who, `/cms/v2/comments?post=${fx.protectedPost.id}`, 'comments', refusal(who), 'rest_cannot_read_post');
      await read(who, `/cms/v2/comments?post=${fx.posts.private.id}`, 'comments', refusal(who), 'rest_cannot_read_post');
      await read(who, `/cms/v2/posts/${fx.publishedPost}?_embed=replies`, 'comments', 200);
      await read(who, '/cms/v2/media?per_page=100', 'media', 200);
      await read(who, `/cms/v2/media?parent=${fx.posts.draft.id}`, 'media', 200);
      await read(who, '/cms/v2/media?search=zq', 'media', 200);
      await read(who, `/cms/v2/posts/${fx.publishedPost}?_embed=author`, 'users', 200);
      const list = await read(who, '/cms/v2/users?per_page=100', 'users', 200);
      if (list.body.some((u: { id: number }) => u.id === fx.draftOnlyAuthor)) wrong.push(`${who}: an author with only drafts is listed`);
      await read(who, `/cms/v2/users/${fx.draftOnlyAuthor}`, 'users', refusal(who), 'rest_user_cannot_view');
      await read(who, '/cms/v2/users?slug=rd-author', 'users', 200).then(
        (r) => r.body.length && wrong.push(`${who}: an author with only drafts is found by slug`),
      );
      await read(who, '/cms/v2/users?search=rd-author', 'users', 200).then(
        (r) => r.body.length && wrong.push(`${who}: an author with only drafts is found by search`),
      );
      // Embedded records answer as their own reads: a draft parent, a draft's attachment.
      await read(who, `/cms/v2/pages/${fx.childPage}?_embed`, 'embedded', 200);
      await read(who, `/cms/v2/pages?include=${fx.childPage}&_embed=up`, 'embedded', 200);
      await read(who, `/cms/v2/posts/${fx.featuredPost}?_embed`, 'embedded', 200);
      await read(who, `/cms/v2/posts?_embed=wp:featuredmedia&per_page=100`, 'embedded', 200);
      await read(who, `/cms/v2/media/${fx.draftMedia}`, 'media', refusal(who), 'rest_forbidden');
      await read(who, `/cms/v2/comments/${fx.privateComment}`, 'comments', refusal(who));
      await read(who, `/cms/v2/categories?post=${fx.posts.draft.id}`, 'terms of a hidden post', refusal(who), 'rest_forbidden_context');
      await read(who, `/cms/v2/tags?post=${fx.posts.private.id}`, 'terms of a hidden post', refusal(who), 'rest_forbidden_context');
      await read(who, `/cms/v2/posts?categories=${fx.category}&per_page=100`, 'posts lists', 200).then(
        (r) => total(r) !== 2 && wrong.push(`${who}: posts in the category: ${total(r)}`),
      );
    }
    finish();
  });

  it('oEmbed answers only for public records', async () => {
    for (const who of READERS) {
      for (const base of ['posts', 'pages'] as const) {
        for (const h of Object.values(fx[base])) await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(h.link)}`, 'oEmbed', 404, 'oembed_invalid_url');
        for (const h of Object.values(fx[base]))
          await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(`http://example.test/?p=${h.id}`)}`, 'oEmbed', 404, 'oembed_invalid_url');
      }
      await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(`http://example.test/?p=${fx.protectedPost.id}`)}`, 'oEmbed', [200, 404]);
      for (const link of fx.eventLinks) await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(link)}`, 'oEmbed', 404, 'oembed_invalid_url');
      await read(who, `/oembed/1.0/embed?url=${encodeURIComponent(`http://example.test/?p=${fx.draftMedia}`)}`, 'oEmbed', 404, 'oembed_invalid_url');
    }
    finish();
  });

  it('term counts count published records only', async () => {
    for (const who of [...READERS, 'administrator'] as const) {
      const cat = await k.users.as(who, 'GET', `/cms/v2/categories/${fx.category}`);
      // The published post and the published protected post.
      if (cat.body.count !== 2) wrong.push(`${who}: category count ${cat.body.count}, expected 2`);
      const tag = await k.users.as(who, 'GET', `/cms/v2/tags/${fx.tag}`);
      if (tag.body.count !== 1) wrong.push(`${who}: tag count ${tag.body.count}, expected 1`);
      // The published event and the published protected one.
      const ec = await k.users.as(who, 'GET', `/vendor/events/v1/categories/${fx.eventCategory}`);
      if (ec.body.count !== 2) wrong.push(`${who}: event category count ${ec.body.count}, expected 2`);
      const ec2 = await k.users.as(who, 'GET', `/cms/v2/vendor_events_cat/${fx.eventCategory}`);
      if (ec2.body.count !== 2) wrong.push(`${who}: cms/v2 event category count ${ec2.body.count}, expected 2`);
      tally.add('term counts', false);
    }
    finish();
  });

  it('vendor/events/v1: archives, search, include, totals and single reads hide what a reader may not see', async () => {
    const window = `start_date=2027-01-01&end_date=2027-12-31`;
    for (const who of READERS) {
      const published = total(await k.app.admin('GET', `/vendor/events/v1/events?${window}&status=publish`), 'x-tec-total');
      for (const q of [window, `${window}&per_page=50`, `${window}&status=publish`, `${window}&categories=${fx.eventCategory}`, `${window}&_embed`]) {
        const res = await read(who, `/vendor/events/v1/events?${q}`, 'events v1 archive', 200, undefined, []);
        if (total(res, 'x-tec-total') !== published || res.body.total !== published)
          wrong.push(`${who} events?${q}: total ${res.headers.get('x-tec-total')}/${res.body.total}, published ${published}`);
      }
      await read(
        who,
        `/vendor/events/v1/events?include=${Object.values(fx.events)
          .map((e) => e.id)
          .join(',')}`,
        'events v1 archive',
        200,
      ).then((r) => r.body.events?.length && wrong.push(`${who} events include: ${r.body.events.length}`));
      for (const e of Object.values(fx.events)) {
        await read(who, `/vendor/events/v1/events?${window}&search=${e.word}`, 'events v1 archive', 200).then(
          (r) => r.body.total && wrong.push(`${who} events search ${e.word}: ${r.body.total}`),
        );
      }
      for (const status of ['draft', 'publish,draft', 'private', 'any'])
        await read(who, `/vendor/events/v1/events?status=${status}`, 'events v1 archive', 400, 'rest_invalid_param');
      for (const [status, e] of Object.entries(fx.events)) {
        const code = status === 'trash' ? 'event-no-longer-available' : 'event-not-accessible';
        await read(who, `/vendor/events/v1/events/${e.id}`, 'events v1 single', 403, code);
        await read(who, `/vendor/events/v1/events/by-slug/${e.slug}`, 'events v1 single', [400, 403]);
      }
      // A published event does not show its hidden venue and organizer.
      await read(who, `/vendor/events/v1/events/${fx.publishedEvent}`, 'events v1 single', 200);
      await read(who, `/vendor/events/v1/venues/${fx.draftVenue.id}`, 'venues v1', 403, 'venue-not-accessible');
      for (const [status, e] of Object.entries(fx.events)) {
        for (const plural of ['categories', 'tags'])
          await read(
            who,
            `/vendor/events/v1/${plural}?event=${e.id}&hide_empty=false`,
            `terms of an event (${status})`,
            refusal(who),
            'rest_forbidden_context',
          );
        await read(who, `/cms/v2/vendor_events_cat?post=${e.id}`, `terms of an event (${status})`, refusal(who), 'rest_forbidden_context');
      }
      await read(who, `/vendor/events/v1/organizers/${fx.privateOrganizer.id}`, 'organizers v1', 403, 'organizer-not-accessible');
      for (const [kind, word] of [
        ['venues', fx.draftVenue.word],
        ['organizers', fx.privateOrganizer.word],
      ] as const) {
        for (const q of ['', `?search=${word}`, `?event=${fx.publishedEvent}`, '?has_events=true', '?only_with_upcoming=true']) {
          const res = await read(who, `/vendor/events/v1/${kind}${q}`, `${kind} v1`, [200]);
          if (res.body.total) wrong.push(`${who} ${kind}${q}: total ${res.body.total}`);
        }
        await read(who, `/vendor/events/v1/${kind}?status=draft`, `${kind} v1`, 400, 'rest_invalid_param');
      }
      // Password-protected: the single read asks for the password, the archive blanks the fields.
      await read(who, `/vendor/events/v1/events/${fx.protectedEvent.id}`, 'events v1 password', 403, 'event-password-protected');
      const ok = await read(who, `/vendor/events/v1/events/${fx.protectedEvent.id}?password=sesame`, 'events v1 password', 200, undefined, [
        fx.protectedEvent.word,
      ]);
      if (!String(ok.body.description).includes(fx.protectedEvent.word)) wrong.push(`${who}: the right password does not show the event`);
      await read(who, `/vendor/events/v1/events?include=${fx.protectedEvent.id}`, 'events v1 password', 200).then((r) => {
        const e = r.body.events?.[0];
        if (!e || e.description !== '' || e.excerpt !== '')
          wrong.push(`${who}: protected event in the archive ${JSON.stringify(e && { description: e.description, excerpt: e.excerpt })}`);
      });
      await read(who, `/vendor/events/v1/events?${window}&search=${fx.protectedEvent.word}`, 'events v1 password', 200).then(
        (r) => who === 'guest' && r.body.total && wrong.push(`guest finds the protected event by its content`),
      );
    }
    finish();
  });

  it('ec/v1: lists, totals and single reads hide what a reader may not see', async () => {
    for (const who of READERS) {
      const admin = await k.app.admin('GET', '/ec/v1/events?status=publish&per_page=100&start_date=2027-01-01&end_date=2027-12-31');
      const published = total(admin);
      for (const q of ['', 'per_page=100', 'status=draft', 'status=publish,draft,pending,private,future', '_embed', '_fields=id,title,content']) {
        const res = await read(who, `/ec/v1/events?${q}&start_date=2027-01-01&end_date=2027-12-31`, 'events ec/v1 list', 200);
        if (total(res) !== published) wrong.push(`${who} ec/v1 events?${q}: X-WP-Total ${total(res)}, published ${published}`);
      }
      for (const e of [...Object.values(fx.events), ...(who === 'guest' ? [fx.protectedEvent] : [])]) {
        await read(who, `/ec/v1/events?search=${e.word}`, 'events ec/v1 list', 200).then(
          (r) => (r.body.length || total(r)) && wrong.push(`${who} ec/v1 search ${e.word}`),
        );
      }
      for (const [status, e] of Object.entries(fx.events))
        await read(who, `/ec/v1/events/${e.id}`, `events ec/v1 single (${status})`, refusal(who), 'rest_forbidden');
      await read(who, `/ec/v1/events/${fx.publishedEvent}`, 'events ec/v1 single', 200);
      await read(who, `/ec/v1/events/${fx.publishedEvent}?_embed`, 'events ec/v1 single', 200);
      await read(who, `/ec/v1/venues/${fx.draftVenue.id}`, 'venues ec/v1', refusal(who), 'rest_forbidden');
      await read(who, `/ec/v1/organizers/${fx.privateOrganizer.id}`, 'organizers ec/v1', refusal(who), 'rest_forbidden');
      for (const kind of ['venues', 'organizers']) {
        for (const q of ['', '?per_page=100', '?status=draft,private', `?event=${fx.publishedEvent}`, '?has_events=true']) {
          const res = await read(who, `/ec/v1/${kind}${q}`, `${kind} ec/v1`, [200, 400]);
          if (res.status === 200 && total(res) !== res.body.length)
            wrong.push(`${who} ec/v1 ${kind}${q}: X-WP-Total ${total(res)} for ${res.body.length} shown`);
        }
      }
      const locked = await read(who, `/ec/v1/events/${fx.protectedEvent.id}`, 'events ec/v1 password', 200);
      if (JSON.stringify(locked.body).includes(fx.protectedEvent.word)) wrong.push(`${who}: ec/v1 protected event shows its content`);
    }
    finish();
  });

  it('the calendar views HTML lists only published events and hides their hidden venues and organizers', async () => {
    for (const who of READERS) {
      const nonce = (await k.users.as(who, 'GET', '/vendor/events/v1/events')).headers.get('x-view-nonce') ?? '';
      for (const u of [
        '/events/month/2027-06/',
        `/events/list/?tribe-bar-date=2027-06-01`,
        `/events/day/${EVENT_DAY}/`,
        `/events/list/?tribe-bar-date=2027-06-01&tribe-bar-search=Hidden`,
      ]) {
        const res = await read(who, `/vendor/views/v2/html?${new URLSearchParams({ u, tvn1: nonce })}`, 'views HTML', 200);
        if (!u.includes('search') && !res.text.includes('Open event')) wrong.push(`${who} ${u}: the published event is missing (the check would be void)`);
      }
      await read(who, `/vendor/views/v2/html?u=/events/`, 'views HTML', refusal(who));
    }
    finish();
  });
});
