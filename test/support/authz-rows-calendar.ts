/** Rows of the write-side authorization matrix (test/authz-matrix.test.ts): vendor/events/v1, ec/v1 and the terms of cms/v2 and vendor/events/v1. */
import { everyone, from } from './authz';
import { EEA, type MatrixKit, type Row } from './authz-matrix';

export function calendarRows(k: MatrixKit): Row[] {
  const { v1Event, v1Linked, ecRecord, term, POSTS, otherAuthor, req, body, uniq } = k;
  return [
    // vendor/events/v1
    {
      area: 'events v1',
      action: 'create published',
      ownership: 'none',
      stores: POSTS,
      request: () =>
        req(
          'POST',
          '/vendor/events/v1/events',
          body({ title: uniq('event'), start_date: '2031-02-02 10:00:00', end_date: '2031-02-02 11:00:00', status: 'publish' }),
        ),
      expect: from('contributor', 201, 'rest_forbidden'),
      check: (res, who) => (res.status === 201 && res.body.status !== (who === 'contributor' ? 'pending' : 'publish') ? `stored as ${res.body.status}` : null),
    },
    {
      area: 'events v1',
      action: 'update a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('POST', `/vendor/events/v1/events/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('contributor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'update published',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('PUT', `/vendor/events/v1/events/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('author', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'update published',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('POST', `/vendor/events/v1/events/${fx.id}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'update a draft by slug',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('POST', `/vendor/events/v1/events/by-slug/${fx.slug}`, body({ title: uniq('edited') })),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash a draft',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/${fx.id}`),
      expect: from('contributor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash published',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/${fx.id}`),
      expect: from('author', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash published',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('publish', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/${fx.id}`),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'trash a draft by slug',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx) => req('DELETE', `/vendor/events/v1/events/by-slug/${fx.slug}`),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'create as another author',
      ownership: 'others',
      stores: POSTS,
      request: (_fx, who) =>
        req(
          'POST',
          '/vendor/events/v1/events',
          body({ title: uniq('event'), start_date: '2031-02-02 10:00:00', end_date: '2031-02-02 11:00:00', author: otherAuthor(who) }),
        ),
      expect: from('editor', 201, 'rest_forbidden'),
    },
    {
      area: 'events v1',
      action: 'hand a draft to another author',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => v1Event('draft', o),
      request: (fx, who) => req('POST', `/vendor/events/v1/events/${fx.id}`, body({ author: otherAuthor(who) })),
      expect: from('editor', 200, 'rest_forbidden'),
    },
    ...(['venue', 'organizer'] as const).flatMap((kind): Row[] => [
      {
        area: `${kind}s v1`,
        action: 'create',
        ownership: 'none',
        stores: POSTS,
        request: () => req('POST', `/vendor/events/v1/${kind}s`, body({ [kind]: uniq(kind) })),
        expect: from('contributor', 201, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'create as another author',
        ownership: 'others',
        stores: POSTS,
        request: (_fx, who) => req('POST', `/vendor/events/v1/${kind}s`, body({ [kind]: uniq(kind), author: otherAuthor(who) })),
        expect: from('editor', 201, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'update a draft',
        ownership: 'own',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'draft', o),
        request: (fx) => req('POST', `/vendor/events/v1/${kind}s/${fx.id}`, body({ [kind]: uniq('edited') })),
        expect: from('contributor', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'update published',
        ownership: 'others',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'publish', o),
        request: (fx) => req('POST', `/vendor/events/v1/${kind}s/${fx.id}`, body({ [kind]: uniq('edited') })),
        expect: from('editor', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'trash published',
        ownership: 'own',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'publish', o),
        request: (fx) => req('DELETE', `/vendor/events/v1/${kind}s/${fx.id}`),
        expect: from('author', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'trash published',
        ownership: 'others',
        stores: POSTS,
        setup: (o) => v1Linked(kind, 'publish', o),
        request: (fx) => req('DELETE', `/vendor/events/v1/${kind}s/${fx.id}`),
        expect: from('editor', 200, 'rest_forbidden'),
      },
      {
        area: `${kind}s v1`,
        action: 'trash a missing one (validation first)',
        ownership: 'none',
        stores: POSTS,
        request: () => req('DELETE', `/vendor/events/v1/${kind}s/999999`),
        expect: everyone(400, 'rest_invalid_param'),
      },
    ]),

    // ec/v1
    ...(['events', 'venues', 'organizers'] as const).flatMap((base): Row[] => {
      const extra = base === 'events' ? { start_date: '2031-03-02 10:00:00', end_date: '2031-03-02 11:00:00' } : {};
      const area = `${base} ec/v1`;
      return [
        {
          area,
          action: 'create',
          ownership: 'none',
          stores: POSTS,
          request: () => req('POST', `/ec/v1/${base}`, { headers: EEA, body: { title: uniq('ec'), ...extra } }),
          expect: from('contributor', 201, 'rest_forbidden'),
        },
        {
          area,
          action: 'create as another author',
          ownership: 'others',
          stores: POSTS,
          request: (_fx, who) => req('POST', `/ec/v1/${base}`, { headers: EEA, body: { title: uniq('ec'), author: otherAuthor(who), ...extra } }),
          expect: from('editor', 201, 'rest_forbidden'),
        },
        {
          area,
          action: 'hand a draft to another author',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'draft', o),
          request: (fx, who) => req('PUT', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { author: otherAuthor(who) } }),
          expect: from('editor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'update a draft',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'draft', o),
          request: (fx) => req('PUT', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { title: uniq('edited') } }),
          expect: from('contributor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'update published',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'publish', o),
          request: (fx) => req('PATCH', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { title: uniq('edited') } }),
          expect: from('author', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'update published',
          ownership: 'others',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'publish', o),
          request: (fx) => req('PUT', `/ec/v1/${base}/${fx.id}`, { headers: EEA, body: { title: uniq('edited') } }),
          expect: from('editor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'trash a draft',
          ownership: 'own',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'draft', o),
          request: (fx) => req('DELETE', `/ec/v1/${base}/${fx.id}`, { headers: EEA }),
          expect: from('contributor', 200, 'rest_forbidden'),
        },
        {
          area,
          action: 'delete published for good',
          ownership: 'others',
          stores: POSTS,
          setup: (o) => ecRecord(base, 'publish', o),
          request: (fx) => req('DELETE', `/ec/v1/${base}/${fx.id}?force=true`, { headers: EEA }),
          expect: from('editor', 200, 'rest_forbidden'),
        },
      ];
    }),

    // terms: cms/v2 and vendor/events/v1
    ...(
      [
        ['categories cms/v2', '/cms/v2/categories', '?force=true', 'rest_cannot_create', 'rest_cannot_update', 'rest_cannot_delete'],
        ['tags cms/v2', '/cms/v2/tags', '?force=true', 'rest_cannot_create', 'rest_cannot_update', 'rest_cannot_delete'],
        ['event categories cms/v2', '/cms/v2/vendor_events_cat', '?force=true', 'rest_cannot_create', 'rest_cannot_update', 'rest_cannot_delete'],
        ['categories v1', '/vendor/events/v1/categories', '', 'rest_forbidden', 'rest_forbidden', 'rest_forbidden'],
        ['tags v1', '/vendor/events/v1/tags', '', 'rest_forbidden', 'rest_forbidden', 'rest_forbidden'],
      ] as const
    ).flatMap(([area, path, force, create, update, del]): Row[] => {
      // Who manages the terms: core's categories and tags need manage_categories (editors), but a flat
      // taxonomy's terms are created with assign_terms (edit_posts, contributors) in cms/v2; the
      // calendar registers its event categories with publish_vendor_events (authors) for all four.
      const manager = (path.includes('categories') && path.includes('vendor')) || path.endsWith('vendor_events_cat') ? 'author' : 'editor';
      const creator = path === '/cms/v2/tags' ? 'contributor' : manager;
      return [
        {
          area,
          action: 'create',
          ownership: 'none',
          stores: ['terms'],
          request: () => req('POST', path, body({ name: uniq('term') })),
          expect: from(creator, 201, create),
        },
        {
          area,
          action: 'update',
          ownership: 'none',
          stores: ['terms'],
          setup: () => term(path),
          request: (fx) => req('POST', `${path}/${fx.id}`, body({ name: uniq('renamed') })),
          expect: from(manager, 200, update),
        },
        {
          area,
          action: 'delete',
          ownership: 'none',
          stores: ['terms', 'posts'],
          setup: () => term(path),
          request: (fx) => req('DELETE', `${path}/${fx.id}${force}`),
          expect: from(manager, 200, del),
        },
      ];
    }),
    {
      area: 'categories v1',
      action: 'delete a missing one (validation first)',
      ownership: 'none',
      stores: ['terms'],
      request: () => req('DELETE', '/vendor/events/v1/categories/999999'),
      expect: everyone(400, 'rest_invalid_param'),
    },
  ];
}
