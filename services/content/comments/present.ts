/**
 * A comment in `view`, `embed` and `edit` context with its `_links` (reference: the comments
 * controller's prepare_item_for_response and prepare_links). What a page of comments needs besides the
 * comments (their posts, page ancestors, which have replies, the users' addresses) is loaded once by
 * the caller, so presenting never queries.
 */
import type { Caller } from '#libs/auth/user';
import { rfc3339, rfc3339Gmt } from '#libs/dates/format';
import { permalinkOf, type PageParents } from '#libs/posts/permalink';
import { wpautop, wptexturize } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import type { Method } from '#libs/rest/registry';
import { restUrl, type Site } from '#libs/rest/site';
import { COMMENT_META } from '#libs/routes/cms/comments';
import { avatarUrls } from '../users/present';
import { canEditComment, canReadComment, canReadPostOf, type PostAccess } from './access';
import type { CommentDoc } from '#libs/comments/repository';

export type Context = 'view' | 'embed' | 'edit';

export interface CommentPresentInput {
  site: Site;
  context: Context;
  user: Caller;
  access: PostAccess;
  posts: Map<number, PostDoc>;
  parents: PageParents;
  /** Comments (of this page) that have replies. */
  withChildren: Set<number>;
  /** User id → e-mail address, for the avatars of registered commenters. */
  emails: Map<number, string>;
  /** The REST route of a post, or null when its type has none in this build. */
  postRoute: (post: PostDoc, user: Caller) => string | null;
}

/** comment_approved as the API names it. */
export function statusName(approved: string): string {
  if (approved === '1') return 'approved';
  if (approved === '0') return 'hold';
  return approved;
}

/** The comment_text filters: texturize, clickable links, paragraphs. */
export function renderComment(content: string): string {
  if (!content) return '';
  return wpautop(wptexturize(makeClickable(content)));
}

/** make_clickable for bare http(s) addresses outside tags and existing links. */
function makeClickable(text: string): string {
  let inLink = 0;
  return text
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        if (/^<a[\s>]/i.test(part)) inLink++;
        else if (/^<\/a>/i.test(part)) inLink = Math.max(0, inLink - 1);
        return part;
      }
      if (inLink) return part;
      return part.replace(
        /(^|[\s(>])(https?:\/\/[^\s<>"'()]+[^\s<>"'().,;:!?])/gi,
        (_m, pre: string, url: string) => `${pre}<a href="${url}" rel="nofollow">${url}</a>`,
      );
    })
    .join('');
}

const META_DEFAULTS: Record<string, unknown> = Object.fromEntries(Object.entries(COMMENT_META).map(([k, v]) => [k, v.default]));

function readMeta(stored: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...META_DEFAULTS };
  if (stored) for (const k of Object.keys(META_DEFAULTS)) if (stored[k] !== undefined && stored[k] !== null) out[k] = stored[k];
  return out;
}

/** get_comment_link: the post's address with the comment's anchor. */
export function commentLink(comment: CommentDoc, input: Pick<CommentPresentInput, 'site' | 'posts' | 'parents'>): string {
  const post = input.posts.get(comment.post);
  return `${post ? permalinkOf(input.site, post, input.parents) : ''}#comment-${comment.id}`;
}

function itemMethods(comment: CommentDoc, input: CommentPresentInput): Method[] {
  const post = input.posts.get(comment.post);
  const out: Method[] = [];
  if (canReadComment(input.user, comment, post, input.access) && (!post || canReadPostOf(input.user, post, input.access))) out.push('GET');
  if (canEditComment(input.user, comment, post)) out.push('POST', 'PUT', 'PATCH', 'DELETE');
  return out;
}

function links(comment: CommentDoc, input: CommentPresentInput): Record<string, unknown> {
  const { site } = input;
  const out: Record<string, unknown> = {
    self: [{ href: restUrl(site, `/cms/v2/comments/${comment.id}`), targetHints: { allow: itemMethods(comment, input) } }],
    collection: [{ href: restUrl(site, '/cms/v2/comments') }],
  };
  if (comment.author) out.author = [{ embeddable: true, href: restUrl(site, `/cms/v2/users/${comment.author}`) }];
  const post = comment.post ? input.posts.get(comment.post) : undefined;
  const route = post ? input.postRoute(post, input.user) : null;
  if (post && route) out.up = [{ embeddable: true, post_type: post.type, href: restUrl(site, route) }];
  if (comment.parent) out['in-reply-to'] = [{ embeddable: true, href: restUrl(site, `/cms/v2/comments/${comment.parent}`) }];
  if (input.withChildren.has(comment.id)) {
    const query: Record<string, unknown> = { parent: comment.id };
    // A note's replies are notes in any state.
    if (comment.type === 'note') Object.assign(query, { type: 'note', status: 'all' });
    out.children = [{ embeddable: true, href: restUrl(site, '/cms/v2/comments', query) }];
  }
  return out;
}

/** A comment in the requested context; `withLinks` false gives the bare data (a delete's `previous`). */
export function presentComment(comment: CommentDoc, input: CommentPresentInput, withLinks = true): Record<string, unknown> {
  const edit = input.context === 'edit';
  const embed = input.context === 'embed';
  const out: Record<string, unknown> = { id: comment.id };
  if (!embed) out.post = comment.post;
  out.parent = comment.parent;
  out.author = comment.author;
  out.author_name = comment.author_name;
  if (edit) out.author_email = comment.author_email;
  out.author_url = comment.author_url;
  if (edit) {
    out.author_ip = comment.author_ip;
    out.author_user_agent = comment.agent;
  }
  out.date = rfc3339(comment.date);
  if (!embed) out.date_gmt = rfc3339Gmt(new Date(comment.date_gmt));
  out.content = edit ? { rendered: renderComment(comment.content), raw: comment.content } : { rendered: renderComment(comment.content) };
  out.link = commentLink(comment, input);
  if (!embed) out.status = statusName(comment.approved);
  out.type = comment.type;
  const email = (comment.author && input.emails.get(comment.author)) || comment.author_email;
  out.author_avatar_urls = avatarUrls(email);
  if (!embed) out.meta = readMeta(comment.meta);
  if (withLinks) out._links = links(comment, input);
  return out;
}
