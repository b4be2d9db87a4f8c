/** The user record in view, embed and edit context (reference: the users controller's schema). */
import { createHash } from 'node:crypto';
import { rfc3339Gmt } from '#libs/dates/format';
import { restUrl, type Site } from '#libs/rest/site';
import type { UserDoc } from '#libs/auth/users';
import { capsOf } from '#libs/auth/roles';

export type Context = 'view' | 'embed' | 'edit';

export function avatarUrls(email: string): Record<string, string> {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return Object.fromEntries([24, 48, 96].map((s) => [String(s), `https://secure.gravatar.com/avatar/${hash}?s=${s}&d=mm&r=g`]));
}

export function presentUser(user: UserDoc, site: Site, context: Context): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: user.id,
    name: user.name,
    url: user.url,
    description: user.description,
    link: `${site.home}/author/${user.slug}/`,
    slug: user.slug,
    avatar_urls: avatarUrls(user.email),
  };
  if (context !== 'embed') out.meta = [];
  if (context === 'edit') {
    Object.assign(out, {
      username: user.login,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      locale: user.locale,
      nickname: user.nickname,
      registered_date: `${rfc3339Gmt(new Date(user.registered))}+00:00`,
      roles: user.roles,
      capabilities: Object.fromEntries([...capsOf(user.roles), ...user.roles].map((c) => [c, true])),
      extra_capabilities: Object.fromEntries(user.roles.map((r) => [r, true])),
    });
  }
  out._links = {
    self: [{ href: restUrl(site, `/cms/v2/users/${user.id}`) }],
    collection: [{ href: restUrl(site, '/cms/v2/users') }],
  };
  return out;
}
