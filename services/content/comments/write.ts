/**
 * Turning a create or update request into stored comment fields (reference: prepare_item_for_database,
 * wp_filter_comment, wp_check_comment_data_max_lengths, wp_allow_comment and the status changes of
 * handle_status_param).
 */
import { can, type Caller } from '#libs/auth/user';
import { capsOf } from '#libs/auth/roles';
import type { UsersRepository } from '#libs/auth/users';
import { kses, TITLE_TAGS } from '#libs/posts/kses';
import { now, parseDateInput } from '#libs/dates/post-dates';
import type { PostDoc } from '#libs/posts/types';
import { stripAllTags } from '#libs/posts/render';
import { isRecord } from '#libs/rest/args';
import { RestError } from '#libs/rest/errors';
import type { HandlerContext } from '#libs/rest/service';
import type { InputOf, Shared } from '#libs/rest/params';
import type { COMMENT_ENDPOINTS } from '#libs/routes/cms/comments';
import type { Filter } from '#libs/store/types';
import type { CommentDoc, CommentsRepository } from '#libs/comments/repository';

/** Fields a request sets (the reference's prepared comment). */
export type Prepared = Partial<
  Pick<CommentDoc, 'content' | 'post' | 'parent' | 'author' | 'author_name' | 'author_email' | 'author_url' | 'author_ip' | 'agent' | 'date' | 'date_gmt'>
>;

/** Address recorded when the request's own is not known (the reference's fallback). */
const FALLBACK_IP = '127.0.0.1';

/** The request's own address when it is a valid one (batch jobs and in-process calls have none). */
export function clientIp(ctx: HandlerContext): string | undefined {
  const ip = ctx.req.client?.ip;
  return ip && /^[0-9a-f.:]+$/i.test(ip) && /[.:]/.test(ip) ? ip : undefined;
}

/** prepare_item_for_database. */
/** What a create and an update write. */
export type CommentWriteInput = InputOf<Shared<typeof COMMENT_ENDPOINTS.create | typeof COMMENT_ENDPOINTS.update>>;

export async function prepare(ctx: HandlerContext<CommentWriteInput>, users: UsersRepository, zone: string): Promise<Prepared> {
  const p = ctx.input;
  const out: Prepared = {};
  if (typeof p.content === 'string') out.content = p.content.trim();
  else if (isRecord(p.content) && typeof p.content.raw === 'string') out.content = p.content.raw.trim();
  if (p.post != null) out.post = p.post;
  if (p.parent != null) out.parent = p.parent;
  if (p.author != null) {
    const user = p.author > 0 ? await users.byId(p.author) : null;
    if (!user) throw new RestError('rest_comment_author_invalid', 'Invalid comment author ID.', 400);
    Object.assign(out, { author: user.id, author_name: user.name, author_email: user.email, author_url: user.url ?? '' });
  }
  if (p.author_name != null) out.author_name = p.author_name;
  if (p.author_email != null) out.author_email = p.author_email;
  if (p.author_url != null) out.author_url = p.author_url;
  out.author_ip = p.author_ip != null && can(ctx.user, 'moderate_comments') ? p.author_ip : (clientIp(ctx) ?? FALLBACK_IP);
  if (p.author_user_agent) out.agent = p.author_user_agent;
  else if (ctx.req.client?.userAgent) out.agent = ctx.req.client.userAgent;
  const date = p.date ? parseDateInput(p.date, zone) : p.date_gmt ? parseDateInput(p.date_gmt, zone, true) : null;
  if (date) {
    out.date = date.local;
    out.date_gmt = date.gmt;
  }
  return out;
}

/** check_is_comment_content_allowed: content, when given, may not be empty. */
export function contentAllowed(prepared: Prepared): boolean {
  return prepared.content === undefined || prepared.content !== '';
}

const MAX_LENGTHS: Array<[keyof Prepared, number, string, boolean]> = [
  ['author_name', 245, 'comment_author_column_length', false],
  ['author_email', 100, 'comment_author_email_column_length', false],
  ['author_url', 200, 'comment_author_url_column_length', false],
  ['content', 65525, 'comment_content_column_length', true],
];

/** wp_check_comment_data_max_lengths, answered as the REST layer does. */
export function checkLengths(prepared: Prepared): void {
  for (const [field, max, code, bytes] of MAX_LENGTHS) {
    const v = prepared[field];
    if (typeof v !== 'string') continue;
    const len = bytes ? Buffer.byteLength(v) : [...v].length;
    if (len > max) throw new RestError(code, 'Comment field exceeds maximum length allowed.', 400);
  }
}

/** wp_is_internal_link: an absolute link to the site's own host. */
function isInternal(href: string, home: string): boolean {
  try {
    const url = new URL(href.toLowerCase());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === new URL(home).hostname;
  } catch {
    return false;
  }
}

/** wp_rel_ugc: links in comments carry rel="nofollow ugc" (links to the site itself only "ugc"), after their other attributes. */
function relUgc(html: string, home: string): string {
  return html.replace(/<a\s+([^>]*)>/gi, (_m, attrs: string) => {
    const href = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const wanted = href && isInternal(href[1] ?? href[2] ?? href[3] ?? '', home) ? ['ugc'] : ['nofollow', 'ugc'];
    const rel = /(?:^|\s)rel\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    if (!rel) return `<a ${attrs.trim()} rel="${wanted.join(' ')}">`;
    const parts = [...new Set([...(rel[2] ?? rel[3] ?? rel[4] ?? '').split(' ').map((x) => x.trim()), ...wanted])].filter(Boolean);
    const rest = attrs.replace(rel[0], '').trim();
    return `<a ${rest ? `${rest} ` : ''}rel="${parts.join(' ')}">`;
  });
}

/** _wp_specialchars without double encoding. */
const specialChars = (s: string) =>
  s
    .replace(/&(?!#?[a-z0-9]+;)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/** esc_url_raw for an author address: no tags, a scheme when none was given, only safe characters. */
function escUrl(url: string): string {
  let u = stripAllTags(url)
    .trim()
    .replace(/ /g, '%20')
    .replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (!u) return '';
  if (!/^[a-z][a-z0-9+.-]*:/i.test(u) && !/^[/#?]/.test(u)) u = `http://${u}`;
  if (/^(javascript|data|vbscript):/i.test(u)) return '';
  return u;
}

/** wp_filter_comment: the pre_comment_* filters. Content is filtered unless the writer has unfiltered_html. */
export function filterComment<T extends Partial<CommentDoc>>(doc: T, user: Caller, home: string): T {
  const out = { ...doc };
  if (typeof out.author_name === 'string') out.author_name = specialChars(stripAllTags(out.author_name).trim());
  if (typeof out.author_email === 'string') out.author_email = out.author_email.trim();
  if (typeof out.author_url === 'string') out.author_url = escUrl(out.author_url);
  if (typeof out.agent === 'string') out.agent = out.agent.slice(0, 254);
  if (typeof out.content === 'string') out.content = relUgc(can(user, 'unfiltered_html') ? out.content : kses(out.content, TITLE_TAGS), home);
  return out;
}

/** The newest comment of the same writer within the hour, to judge flooding (moderators are never throttled). */
async function isFlood(comments: CommentsRepository, user: Caller, email: string, at: Date): Promise<boolean> {
  if (!user || can(user, 'manage_options') || can(user, 'moderate_comments')) return false;
  const since = new Date(Date.now() - 3_600_000);
  const or = [{ author: user.id }, ...(email ? [{ author_email: email }] : [])];
  const [last] = await comments.find({ date_gmt: { $gte: since }, $or: or }, { sort: [['date_gmt', -1]], limit: 1, fields: ['date_gmt'] });
  // wp_throttle_comment_flood: less than 15 seconds since the last one.
  return !!last && (at.getTime() - new Date(last.date_gmt).getTime()) / 1000 < 15;
}

/** check_comment with the default discussion settings: at most one link, and an earlier approved comment by the same person. */
async function passesModeration(comments: CommentsRepository, users: UsersRepository, doc: CommentDoc): Promise<boolean> {
  if ((doc.content.match(/<a [^>]*href/gi) ?? []).length >= 2) return false;
  if (!doc.author_name || !doc.author_email) return false;
  const registered = await users.byEmail(doc.author_email.toLowerCase());
  const filter = registered ? { author: registered.id, approved: '1' } : { author_email: doc.author_email, author_name: doc.author_name, approved: '1' };
  return !!(await comments.findOne(filter, { fields: ['id'] }));
}

/** wp_allow_comment: duplicate and flood checks, then the approval state of a new comment. */
export async function allowComment(comments: CommentsRepository, users: UsersRepository, doc: CommentDoc, post: PostDoc, user: Caller): Promise<string> {
  const dupe: Filter = { post: doc.post, parent: doc.parent, approved: { $ne: 'trash' }, author_name: doc.author_name, content: doc.content };
  if (doc.author_email) dupe.author_email = doc.author_email;
  if (await comments.findOne(dupe, { fields: ['id'] })) {
    throw new RestError('comment_duplicate', 'Duplicate comment detected; it looks as though you&#8217;ve already said that!', 409);
  }
  if (await isFlood(comments, user, doc.author_email, doc.date_gmt))
    throw new RestError('comment_flood', 'You are posting comments too quickly. Slow down.', 400);
  if (doc.author) {
    const writer = doc.author === user?.id ? user : null;
    const caps = writer ? writer.caps : capsOf((await users.byId(doc.author))?.roles ?? []);
    // The post's author and moderators are trusted.
    if (doc.author === post.author || caps.includes('moderate_comments')) return '1';
  }
  return (await passesModeration(comments, users, doc)) ? '1' : '0';
}

/** wp_get_comment_status. */
function currentStatus(approved: string): string {
  return approved === '1' ? 'approved' : approved === '0' ? 'unapproved' : approved;
}

/** handle_status_param: the fields a status change sets, or null when it changes nothing. */
export function statusChange(comment: Pick<CommentDoc, 'approved' | 'trash_status'>, status: string): Partial<CommentDoc> | null {
  if (status === currentStatus(comment.approved)) return null;
  switch (status) {
    case 'approved':
    case 'approve':
    case '1':
      return { approved: '1' };
    case 'hold':
    case '0':
      return { approved: '0' };
    case 'spam':
    case 'trash':
      return { approved: status, trash_status: comment.approved, trash_time: now() };
    case 'unspam':
    case 'untrash':
      // The state before; a comment never trashed or marked as spam goes to hold, as the reference does.
      return { approved: comment.trash_status || '0', trash_status: undefined, trash_time: undefined };
    default:
      return null;
  }
}
