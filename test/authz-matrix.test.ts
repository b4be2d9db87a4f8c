/**
 * The write side of the authorization matrix: every role of the reference (and a guest) against every
 * write route, on their own records and on others', each cell with the status and error code the
 * reference's capability table gives (guest 401, signed-in user without the capability 403,
 * parameter validation before permission). A refused cell must leave the store as it was: the
 * collections the route writes are fingerprinted before and after.
 *
 * Runs on the embedded store and on MongoDB.
 */
import { fingerprint, from, everyone, ownerId, WHO, type Expectations } from './support/authz';
import { matrixKit, type Row } from './support/authz-matrix';
import { adminRows } from './support/authz-rows-admin';
import { calendarRows } from './support/authz-rows-calendar';
import { contentRows } from './support/authz-rows-content';
import type { Who } from './support/roles';
import { appStores } from './support/app';

describe.each(appStores('authz_matrix'))('authorization matrix, write side (%s)', (storeName, env) => {
  const k = matrixKit(storeName, env);
  const { post, tally } = k;
  const ROWS: Row[] = [...contentRows(k), ...calendarRows(k), ...adminRows(k)];

  it(`answers every cell as the reference's capability table says, and a refusal changes nothing`, async () => {
    const wrong: string[] = [];
    for (const row of ROWS) {
      for (const who of WHO) {
        const fx = row.setup ? await row.setup(ownerId(k.users, k.adminId, who, row.ownership), who) : {};
        const r = row.request(fx, who);
        const want = row.expect[who];
        const refused = want.status >= 400;
        const named = [fx.id, fx.post, fx.revision].filter((v): v is number => typeof v === 'number');
        const before = refused ? await fingerprint(k.store, row.stores, named) : '';
        const res = await k.users.as(who, r.method, r.path, r.opts);
        const label = `${row.area} | ${row.action} | ${row.ownership} | ${who}`;
        const gotCode = res.status >= 400 ? res.body?.code : undefined;
        if (res.status !== want.status || (want.code && gotCode !== want.code)) {
          wrong.push(`${label}: expected ${want.status} ${want.code ?? ''}, got ${res.status} ${gotCode ?? ''}`.trim());
        } else if (refused && (await fingerprint(k.store, row.stores, named)) !== before) {
          wrong.push(`${label}: refused, but the store changed`);
        } else if (row.check) {
          const problem = await row.check(res, who, fx);
          if (problem) wrong.push(`${label}: ${problem}`);
        }
        tally.add(row.area, refused);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('batch sub-requests each run with the caller’s own rights', async () => {
    const published = await post('posts', 'publish', k.adminId);
    const subs: Array<{ label: string; request: Record<string, unknown> | ((who: Who) => Record<string, unknown>); expect: Expectations }> = [
      {
        label: 'create a draft post',
        request: { method: 'POST', path: '/cms/v2/posts', body: { title: 'batched' } },
        expect: from('contributor', 201, 'rest_cannot_create'),
      },
      {
        label: 'create a page',
        request: { method: 'POST', path: '/cms/v2/pages', body: { title: 'batched page' } },
        expect: from('editor', 201, 'rest_cannot_create'),
      },
      {
        label: 'create a category',
        request: { method: 'POST', path: '/cms/v2/categories', body: { name: 'batched' } },
        expect: from('editor', 201, 'rest_cannot_create'),
      },
      {
        label: "edit the administrator's published post",
        request: { method: 'PUT', path: `/cms/v2/posts/${published.id}`, body: { title: 'batched edit' } },
        expect: from('editor', 200, 'rest_cannot_edit'),
      },
      // Users are not batchable here (the interface lists posts, pages and, as the reference, terms).
      {
        label: 'rename oneself as users/me',
        request: { method: 'POST', path: '/cms/v2/users/me', body: { name: 'Batched' } },
        expect: everyone(400, 'rest_batch_not_allowed'),
      },
      {
        label: 'trash published post for good',
        request: { method: 'DELETE', path: `/cms/v2/posts/${published.id}?force=true` },
        expect: from('administrator', 200, 'rest_cannot_delete', { editor: 200 }),
      },
    ];
    const wrong: string[] = [];
    // Lowest rights first, so the refusals see the post the administrator deletes at the end.
    for (const who of WHO) {
      const n = k.next();
      const requests = subs.map((sub) => {
        const s = { request: typeof sub.request === 'function' ? sub.request(who) : sub.request };
        const body = s.request.body as Record<string, unknown> | undefined;
        return {
          ...s.request,
          ...(body ? { body: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? `${v} ${n}` : v])) } : {}),
        };
      });
      const allRefused = subs.every((s) => s.expect[who].status >= 400);
      const before = allRefused ? await fingerprint(k.store, ['posts', 'terms', 'users'], [published.id]) : '';
      // The editor edits and deletes the post; the administrator's own run finds it gone.
      const res = await k.users.as(who, 'POST', '/batch/v1', { body: { requests: who === 'administrator' ? requests.slice(0, 3) : requests } });
      if (res.status !== 207) {
        wrong.push(`batch | ${who}: expected 207, got ${res.status}`);
        continue;
      }
      res.body.responses.forEach((r: { status: number; body: { code?: string } }, i: number) => {
        const want = subs[i].expect[who];
        const code = r.status >= 400 ? r.body?.code : undefined;
        if (r.status !== want.status || (want.code && code !== want.code))
          wrong.push(`batch | ${subs[i].label} | ${who}: expected ${want.status} ${want.code ?? ''}, got ${r.status} ${code ?? ''}`);
        tally.add('batch sub-requests', want.status >= 400);
      });
      if (allRefused && (await fingerprint(k.store, ['posts', 'terms', 'users'], [published.id])) !== before)
        wrong.push(`batch | ${who}: all refused, but the store changed`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
