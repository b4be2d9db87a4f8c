/** Rows of the write-side authorization matrix (test/authz-matrix.test.ts): media, comments, users, application passwords, settings and imports. */
import { everyone, from } from './authz';
import { type MatrixKit, type Row } from './authz-matrix';

export function adminRows(k: MatrixKit): Row[] {
  const { post, media, user, comment, appPassword, records, POSTS, otherAuthor, req, body, uniq } = k;
  return [
    // media
    {
      area: 'media',
      action: 'upload',
      ownership: 'none',
      stores: POSTS,
      request: () =>
        req('POST', '/cms/v2/media', {
          raw: k.jpeg,
          contentType: 'image/k.jpeg',
          headers: { 'Content-Disposition': `attachment; filename="up${k.next()}.jpg"` },
        }),
      expect: from('author', 201, 'rest_cannot_create'),
    },
    {
      area: 'media',
      action: "upload to another's post",
      ownership: 'others',
      stores: POSTS,
      setup: (o) => post('posts', 'publish', o),
      request: (fx) =>
        req('POST', `/cms/v2/media?post=${fx.id}`, {
          raw: k.jpeg,
          contentType: 'image/k.jpeg',
          headers: { 'Content-Disposition': `attachment; filename="up${k.next()}.jpg"` },
        }),
      expect: from('editor', 201, 'rest_cannot_create', { author: { status: 403, code: 'rest_cannot_edit' } }),
    },
    {
      area: 'media',
      action: 'update',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('POST', `/cms/v2/media/${fx.id}`, body({ title: uniq('media') })),
      expect: from('author', 200, 'rest_cannot_edit'),
    },
    {
      area: 'media',
      action: 'update',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('POST', `/cms/v2/media/${fx.id}`, body({ alt_text: uniq('alt') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'media',
      action: 'delete',
      ownership: 'own',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('DELETE', `/cms/v2/media/${fx.id}?force=true`),
      expect: from('author', 200, 'rest_cannot_delete'),
    },
    {
      area: 'media',
      action: 'delete',
      ownership: 'others',
      stores: POSTS,
      setup: (o) => media(o),
      request: (fx) => req('DELETE', `/cms/v2/media/${fx.id}?force=true`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },

    // comments
    {
      area: 'comments',
      action: 'comment on a published post',
      ownership: 'none',
      stores: ['comments'],
      setup: () => post('posts', 'publish', k.users.ids.editor),
      request: (fx) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('Nice post') })),
      expect: from('subscriber', 201, 'rest_comment_login_required'),
    },
    {
      area: 'comments',
      action: 'comment as another user',
      ownership: 'others',
      stores: ['comments'],
      setup: () => post('posts', 'publish', k.users.ids.editor),
      request: (fx, who) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('Spoofed'), author: otherAuthor(who) })),
      expect: from('editor', 201, 'rest_comment_invalid_author', { guest: { status: 401, code: 'rest_comment_login_required' } }),
    },
    {
      area: 'comments',
      action: 'comment approved at once',
      ownership: 'none',
      stores: ['comments'],
      setup: () => post('posts', 'publish', k.users.ids.editor),
      request: (fx) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('Approve me'), status: 'approved' })),
      expect: from('editor', 201, 'rest_comment_invalid_status', { guest: { status: 401, code: 'rest_comment_login_required' } }),
    },
    {
      area: 'comments',
      action: 'comment on a draft',
      ownership: 'others',
      stores: ['comments'],
      setup: (o) => post('posts', 'draft', o),
      request: (fx) => req('POST', '/cms/v2/comments', body({ post: fx.id, content: uniq('On a draft') })),
      expect: from('nobody', 201, 'rest_comment_draft_post', { guest: { status: 401, code: 'rest_comment_login_required' } }),
    },
    {
      area: 'comments',
      action: "edit a comment on the actor's post",
      ownership: 'own',
      stores: ['comments'],
      setup: (o) => comment(o),
      request: (fx) => req('POST', `/cms/v2/comments/${fx.id}`, body({ content: uniq('edited') })),
      expect: from('author', 200, 'rest_cannot_edit'),
    },
    {
      area: 'comments',
      action: "edit a comment on another's post",
      ownership: 'others',
      stores: ['comments'],
      setup: (o) => comment(o),
      request: (fx) => req('POST', `/cms/v2/comments/${fx.id}`, body({ content: uniq('edited') })),
      expect: from('editor', 200, 'rest_cannot_edit'),
    },
    {
      area: 'comments',
      action: "delete a comment on another's post",
      ownership: 'others',
      stores: ['comments'],
      setup: (o) => comment(o),
      request: (fx) => req('DELETE', `/cms/v2/comments/${fx.id}?force=true`),
      expect: from('editor', 200, 'rest_cannot_delete'),
    },

    // users
    {
      area: 'users',
      action: 'create',
      ownership: 'none',
      stores: ['users'],
      request: () => {
        const n = k.next();
        return req('POST', '/cms/v2/users', body({ username: `new-${n}`, email: `new${n}@example.com`, password: 'pw-123456' }));
      },
      expect: from('administrator', 201, 'rest_cannot_create_user'),
    },
    {
      area: 'users',
      action: 'update own name',
      ownership: 'own',
      stores: ['users'],
      request: () => req('POST', '/cms/v2/users/me', body({ name: uniq('Name') })),
      expect: from('subscriber', 200, 'rest_not_logged_in'),
    },
    {
      area: 'users',
      action: 'make oneself administrator',
      ownership: 'own',
      stores: ['users'],
      request: (_fx, who) => req('POST', `/cms/v2/users/${who === 'guest' ? k.adminId : k.users.ids[who]}`, body({ roles: ['administrator'] })),
      expect: from('administrator', 200, 'rest_cannot_edit_roles', { guest: { status: 401, code: 'rest_cannot_edit' } }),
    },
    {
      area: 'users',
      action: 'update',
      ownership: 'others',
      stores: ['users'],
      setup: () => user(),
      request: (fx) => req('POST', `/cms/v2/users/${fx.id}`, body({ name: uniq('Name') })),
      expect: from('administrator', 200, 'rest_cannot_edit'),
    },
    {
      area: 'users',
      action: 'delete',
      ownership: 'others',
      stores: ['users', 'posts'],
      setup: () => user(),
      request: (fx) => req('DELETE', `/cms/v2/users/${fx.id}?force=true&reassign=${k.adminId}`),
      expect: from('administrator', 200, 'rest_user_cannot_delete'),
    },

    // application passwords
    {
      area: 'application passwords',
      action: 'create',
      ownership: 'own',
      stores: ['users'],
      request: () => req('POST', '/cms/v2/users/me/application-passwords', body({ name: uniq('mine') })),
      expect: from('subscriber', 201, 'rest_not_logged_in'),
    },
    {
      area: 'application passwords',
      action: 'create',
      ownership: 'others',
      stores: ['users'],
      setup: () => user(),
      request: (fx) => req('POST', `/cms/v2/users/${fx.id}/application-passwords`, body({ name: 'theirs' })),
      expect: from('administrator', 201, 'rest_cannot_create_application_passwords'),
    },
    {
      area: 'application passwords',
      action: 'list',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('GET', `/cms/v2/users/${fx.id}/application-passwords`),
      expect: from('administrator', 200, 'rest_cannot_list_application_passwords'),
    },
    {
      area: 'application passwords',
      action: 'rename',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('POST', `/cms/v2/users/${fx.id}/application-passwords/${fx.uuid}`, body({ name: 'renamed' })),
      expect: from('administrator', 200, 'rest_cannot_edit_application_password'),
    },
    {
      area: 'application passwords',
      action: 'delete one',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('DELETE', `/cms/v2/users/${fx.id}/application-passwords/${fx.uuid}`),
      expect: from('administrator', 200, 'rest_cannot_delete_application_password'),
    },
    {
      area: 'application passwords',
      action: 'delete all',
      ownership: 'others',
      stores: ['users'],
      setup: () => appPassword(),
      request: (fx) => req('DELETE', `/cms/v2/users/${fx.id}/application-passwords`),
      expect: from('administrator', 200, 'rest_cannot_delete_application_passwords'),
    },

    // settings
    {
      area: 'settings',
      action: 'update the site title',
      ownership: 'none',
      stores: ['options'],
      request: () => req('POST', '/cms/v2/settings', body({ title: uniq('Site') })),
      expect: from('administrator', 200, 'rest_forbidden'),
    },

    // imports: the remote import service authenticates by the record's batch hash, not by a user
    {
      area: 'imports',
      action: 'batch for an unknown import',
      ownership: 'none',
      stores: POSTS,
      request: () =>
        req(
          'POST',
          '/vendor/event-aggregator/v1/import/nosuchimport/batch',
          body({ batch_hash: 'x', percentage_complete: 1, status: { data: { total: 1, done: 0 }, batch: { total: 1, done: 0 } }, events: [] }),
        ),
      expect: everyone(400, 'rest_invalid_param'),
    },
    {
      area: 'imports',
      action: 'state with a wrong hash',
      ownership: 'none',
      stores: POSTS,
      setup: async () => {
        const importId = `imp${k.next()}${Date.now()}`;
        await records().create({ importId, origin: 'ical', batchHash: 'the-real-secret' });
        return { importId };
      },
      request: (fx) =>
        req(
          'POST',
          `/vendor/event-aggregator/v1/import/${fx.importId}/state`,
          body({ batch_hash: 'guessed', status: 'failed', message: 'm', message_slug: 's', percentage_complete: 50 }),
        ),
      expect: everyone(400, 'rest_invalid_param'),
    },
    {
      area: 'imports',
      action: 'state with the right hash',
      ownership: 'none',
      stores: POSTS,
      setup: async () => {
        const importId = `imp${k.next()}${Date.now()}`;
        await records().create({ importId, origin: 'ical', batchHash: 'the-real-secret' });
        return { importId };
      },
      request: (fx) =>
        req(
          'POST',
          `/vendor/event-aggregator/v1/import/${fx.importId}/state`,
          body({ batch_hash: 'the-real-secret', status: 'pending', message: 'm', message_slug: 's', percentage_complete: 50 }),
        ),
      expect: everyone(200),
    },
  ];
}
