/**
 * oEmbed data of this site's own records (reference: get_oembed_response_data and
 * get_post_embed_html): a URL of a publicly viewable post, page, event, venue or organizer becomes a
 * `rich` answer whose html is the reference's blockquote fallback, sandboxed iframe and resize script.
 */
import { randomBytes } from 'node:crypto';
import type { UsersRepository } from '#libs/auth/users';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import { permalinkOf, resolvePermalink, type PageParents } from '#libs/posts/permalink';
import { renderTitle, stripAllTags } from '#libs/posts/render';
import type { PostsRepository } from '#libs/posts/repository';
import type { PostDoc } from '#libs/posts/types';
import type { Site } from '#libs/rest/site';
import { escapeHtml } from '#libs/html/escape';
import { isRecord } from '#libs/rest/args';

/** Post types with public single pages, which the reference embeds. */
export const EMBEDDABLE_TYPES = new Set(['post', 'page', EVENT_TYPE, VENUE_TYPE, ORGANIZER_TYPE]);
export const MIN_WIDTH = 200;
export const MAX_WIDTH = 600;

export type OembedData = Record<string, string | number | boolean>;

export interface EmbedDeps {
  site: Site;
  posts: PostsRepository;
  users: UsersRepository;
}

/** The frame size for a requested maxwidth: W = clamp(maxwidth, 200, 600), H = max(ceil(W * 9 / 16), 200). */
export function embedSize(maxwidth: number): { width: number; height: number } {
  const width = Math.min(Math.max(MIN_WIDTH, Number.isFinite(maxwidth) ? Math.trunc(maxwidth) : MAX_WIDTH), MAX_WIDTH);
  return { width, height: Math.max(Math.ceil((width * 9) / 16), MIN_WIDTH) };
}

/** Escapes text for an HTML attribute or element (esc_attr / esc_html on plain text). */

/** A 10-character secret tying the iframe to its blockquote (wp_generate_password(10, false)). */
export function embedSecret(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
}

/**
 * The title as the reference prints it (texturized, `Protected: ` for a password-protected record),
 * without markup: its quotes are already entities, and `<`/`>` are escaped, so it is safe in HTML text
 * and attributes alike.
 */
export function embedTitle(doc: Pick<PostDoc, 'title' | 'password'>): string {
  const title = renderTitle(stripAllTags(doc.title ?? ''))
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  return doc.password ? `Protected: ${title}` : title;
}

/**
 * Resizes embedded frames from the height they report, and shows them in place of their fallback
 * blockquote once they answer; messages must carry the frame's own secret and come from that frame.
 */
const EMBED_SCRIPT =
  "(function(w,d){if(w.ecEmbedListener)return;w.ecEmbedListener=1;w.addEventListener('message',function(e){var m=e.data;" +
  "if(!m||typeof m!=='object'||!/^[A-Za-z0-9]{10}$/.test(String(m.secret)))return;" +
  "var f=d.querySelectorAll('iframe[data-secret=\"'+m.secret+'\"]'),q=d.querySelectorAll('blockquote[data-secret=\"'+m.secret+'\"]'),i;" +
  "for(i=0;i<f.length;i++){var el=f[i];if(e.source!==el.contentWindow)continue;el.removeAttribute('style');" +
  "for(var j=0;j<q.length;j++)q[j].style.display='none';" +
  "if(m.message==='height'){var h=parseInt(m.value,10);el.height=String(Math.min(Math.max(isNaN(h)?200:h,200),1000));}}},false);})(window,document);";

/** The address of a record's embed page: `<permalink>embed/`, or `&embed=true` on a query permalink. */
export function embedPageUrl(permalink: string): string {
  return permalink.includes('?') ? `${permalink}&embed=true` : `${permalink}embed/`;
}

export function embedHtml(site: Site, permalink: string, title: string, size: { width: number; height: number }, secret = embedSecret()): string {
  const frameTitle = `&#8220;${title}&#8221; &#8212; ${escapeHtml(site.name)}`;
  return (
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escapeHtml(permalink)}">${title}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${escapeHtml(`${embedPageUrl(permalink)}#?secret=${secret}`)}" width="${size.width}" height="${size.height}" title="${frameTitle}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>` +
    `<script>${EMBED_SCRIPT}</script>`
  );
}

/** Page id → slug and parent for every ancestor of a page, for its nested permalink. */
async function ancestorsOf(posts: PostsRepository, doc: PostDoc): Promise<PageParents> {
  const parents: PageParents = new Map();
  let at = doc.type === 'page' ? doc.parent : 0;
  while (at > 0 && !parents.has(at)) {
    const p = await posts.byId(at);
    if (!p) break;
    parents.set(p.id, { slug: p.slug, parent: p.parent });
    at = p.parent;
  }
  return parents;
}

/** Thumbnail fields from a featured image attachment, scaled to fit the frame width. */
async function thumbnail(posts: PostsRepository, doc: PostDoc, width: number): Promise<OembedData> {
  if (!doc.featured_media) return {};
  const media = await posts.byId(doc.featured_media);
  if (!media || media.type !== 'attachment' || typeof media.mime_type !== 'string' || !media.mime_type.startsWith('image/') || !media.guid) return {};
  const meta = media.meta?._wp_attachment_metadata;
  // Read as the arithmetic below would coerce them (stored sizes are numbers).
  const full = { width: Number(isRecord(meta) ? meta.width : undefined), height: Number(isRecord(meta) ? meta.height : undefined) };
  if (!full.width || !full.height) return { thumbnail_url: media.guid };
  const w = Math.min(full.width, width);
  return { thumbnail_url: media.guid, thumbnail_width: w, thumbnail_height: Math.round((full.height * w) / full.width) };
}

/** Whether the reference would embed the record: a public type, published. */
export function isEmbeddable(doc: PostDoc): boolean {
  return EMBEDDABLE_TYPES.has(doc.type) && doc.status === 'publish';
}

/** The oEmbed answer for a URL of this site, or null when it names nothing embeddable. */
export async function localEmbed(deps: EmbedDeps, url: string, maxwidth: number): Promise<OembedData | null> {
  const doc = await resolvePermalink(deps.posts, deps.site, url);
  if (!doc || !isEmbeddable(doc)) return null;
  const { site } = deps;
  const size = embedSize(maxwidth);
  const author = doc.author ? await deps.users.byId(doc.author) : null;
  const title = embedTitle(doc);
  const permalink = permalinkOf(site, doc, await ancestorsOf(deps.posts, doc));
  return {
    version: '1.0',
    provider_name: site.name,
    provider_url: site.home,
    author_name: author ? author.name : site.name,
    author_url: author ? `${site.home}/author/${author.slug}/` : site.home,
    title,
    type: 'rich',
    width: size.width,
    height: size.height,
    html: embedHtml(site, permalink, title, size),
    ...(await thumbnail(deps.posts, doc, size.width)),
  };
}
