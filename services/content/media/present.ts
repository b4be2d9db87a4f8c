/**
 * An attachment in `view`, `embed` and `edit` context with its `_links` (reference: the attachments
 * controller's prepare_item_for_response over the posts controller's).
 */
import type { Caller } from '#libs/auth/user';
import { mysqlLocal, rfc3339, rfc3339Gmt } from '#libs/dates/format';
import { readMeta } from '#libs/posts/meta';
import { renderContent, renderExcerpt, renderTitle } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import { attachedFile, attachmentMetadata, attachmentUrl, isImageAttachment, siblingUrl } from '#libs/media/library';
import { IMAGE_SIZES, resizeDimensions } from '#libs/media/images';
import type { Method } from '#libs/rest/registry';
import { restUrl, type Site } from '#libs/rest/site';
import type { Context } from '../posts/present';
import { canDeleteMedia, canEditMedia } from './access';

export interface MediaPresentInput {
  site: Site;
  context: Context;
  user: Caller;
  /** Parent id → its type (for the attached-to link). */
  parents: Map<number, string>;
  links: { types: boolean; comments: boolean };
}

const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** The REST base of a record type that cms/v2 serves, for links to a parent. */
function restBaseOf(type: string): string | null {
  if (type === 'post') return 'posts';
  if (type === 'page') return 'pages';
  if (type === 'attachment') return 'media';
  return null;
}

function itemMethods(user: Caller, doc: PostDoc): Method[] {
  const out: Method[] = [];
  // Only attachments the caller may read are presented.
  out.push('GET');
  if (canEditMedia(user, doc)) out.push('POST', 'PUT', 'PATCH');
  if (canDeleteMedia(user, doc)) out.push('DELETE');
  return out;
}

/** media_details: the stored metadata with each size's URL and a `full` entry (images). */
function mediaDetails(site: Site, doc: PostDoc): Record<string, unknown> {
  const meta = attachmentMetadata(doc);
  if (!meta || Object.keys(meta).length === 0) return {};
  const out: Record<string, unknown> = { ...meta };
  const sizes = meta.sizes ?? {};
  if (Object.keys(sizes).length) {
    const shown: Record<string, unknown> = {};
    for (const [name, s] of Object.entries(sizes)) {
      const { 'mime-type': mime, ...rest } = s;
      shown[name] = { ...rest, mime_type: mime, source_url: siblingUrl(site, doc, s.file) ?? attachmentUrl(site, doc) };
    }
    const url = attachmentUrl(site, doc);
    shown.full = { file: url.split('/').pop(), width: meta.width, height: meta.height, mime_type: doc.mime_type, source_url: url };
    out.sizes = shown;
  } else out.sizes = {};
  return out;
}

/** wp_get_missing_image_subsizes(): sizes the image should have and has not. */
function missingSizes(doc: PostDoc): string[] {
  if (!isImageAttachment(doc)) return [];
  const meta = attachmentMetadata(doc);
  if (!meta?.width || !meta.height) return [];
  return Object.entries(IMAGE_SIZES)
    .filter(([name, spec]) => !meta.sizes?.[name] && resizeDimensions(meta.width!, meta.height!, spec) !== null)
    .map(([name]) => name);
}

export function presentMedia(doc: PostDoc, input: MediaPresentInput, withLinks = true): Record<string, unknown> {
  const { site, context } = input;
  const edit = context === 'edit';
  const embed = context === 'embed';
  const zone = site.timezone;
  const out: Record<string, unknown> = { id: doc.id, date: rfc3339(doc.date) };
  if (!embed) {
    out.date_gmt = doc.date_gmt ? rfc3339Gmt(new Date(doc.date_gmt)) : null;
    out.guid = edit ? { rendered: doc.guid, raw: doc.guid } : { rendered: doc.guid };
    out.modified = rfc3339(doc.modified || mysqlLocal(new Date(doc.modified_gmt), zone));
    out.modified_gmt = rfc3339Gmt(new Date(doc.modified_gmt));
  }
  out.slug = doc.slug;
  if (!embed) out.status = doc.status;
  out.type = doc.type;
  out.link = `${site.home}/?attachment_id=${doc.id}`;
  out.title = edit ? { raw: doc.title, rendered: renderTitle(doc.title) } : { rendered: renderTitle(doc.title) };
  out.author = doc.author;
  if (!embed) {
    out.comment_status = doc.comment_status;
    out.ping_status = doc.ping_status;
    out.template = doc.template ?? '';
    out.meta = readMeta(doc.meta);
  }
  if (edit) {
    out.permalink_template = `${site.home}/?attachment_id=${doc.id}`;
    out.generated_slug = doc.slug;
  }
  if (!embed) out.description = edit ? { raw: doc.content, rendered: renderContent(doc.content) } : { rendered: renderContent(doc.content) };
  const caption = renderExcerpt(doc.excerpt, '');
  out.caption = edit ? { raw: doc.excerpt, rendered: caption } : { rendered: caption };
  out.alt_text = typeof doc.meta?._wp_attachment_image_alt === 'string' ? doc.meta._wp_attachment_image_alt : '';
  out.media_type = isImageAttachment(doc) ? 'image' : 'file';
  out.mime_type = doc.mime_type ?? '';
  out.media_details = mediaDetails(site, doc);
  if (!embed) out.post = doc.parent ? doc.parent : null;
  out.source_url = attachmentUrl(site, doc);
  if (edit) out.missing_image_sizes = missingSizes(doc);
  if (!embed) {
    const meta = attachmentMetadata(doc);
    const file = attachedFile(doc);
    out.filename = meta?.original_image ?? (file ? file.split('/').pop() : null) ?? null;
    out.filesize = typeof meta?.filesize === 'number' && meta.filesize > 0 ? meta.filesize : null;
  }
  if (edit && isImageAttachment(doc)) out.exif_orientation = Number(attachmentMetadata(doc)?.image_meta?.orientation ?? 1) || 1;
  if (withLinks) out._links = links(doc, input);
  return out;
}

function links(doc: PostDoc, input: MediaPresentInput): Record<string, unknown> {
  const { site } = input;
  const out: Record<string, unknown> = {
    self: [{ href: restUrl(site, `/cms/v2/media/${doc.id}`), targetHints: { allow: itemMethods(input.user, doc) } }],
    collection: [{ href: restUrl(site, '/cms/v2/media') }],
  };
  if (input.links.types) out.about = [{ href: restUrl(site, '/cms/v2/types/attachment') }];
  if (doc.author) out.author = [{ embeddable: true, href: restUrl(site, `/cms/v2/users/${doc.author}`) }];
  if (input.links.comments) out.replies = [{ embeddable: true, href: restUrl(site, '/cms/v2/comments', { post: doc.id }) }];
  const parentType = doc.parent ? input.parents.get(doc.parent) : undefined;
  const base = parentType ? restBaseOf(parentType) : null;
  if (parentType && base)
    out['wp:attached-to'] = [{ href: restUrl(site, `/cms/v2/${base}/${doc.parent}`), embeddable: true, post_type: parentType, id: doc.parent }];
  if (Object.keys(out).some((rel) => rel.startsWith('wp:'))) out.curies = CURIES;
  return out;
}
