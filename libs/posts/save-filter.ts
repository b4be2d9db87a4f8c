/**
 * How the text of a post-like record (post, page, attachment, event, venue, organizer) is saved, by
 * the writer's capability, as the reference's kses_init_filters sets it up: a writer with
 * `unfiltered_html` (administrators and editors) saves markup as written; any other writer, and
 * third-party text (imported feeds), saves
 * - titles through wp_filter_kses with the inline tag set (title_save_pre),
 * - content and excerpts through wp_filter_post_kses (content_save_pre, excerpt_save_pre),
 * - plain-text meta (a venue's address, an organizer's phone, an event's cost...) through
 *   sanitize_text_field: the reference stores those raw, and the calendar shows them as text, so a
 *   writer who may not publish markup may not store any there either,
 * - the footnotes of a post with each note's content through wp_filter_post_kses, as the reference's
 *   footnotes filter does.
 * URL fields are stored as esc_url_raw leaves them, whoever writes them: only allowed protocols, no
 * quotes or angle brackets, '' for a URL that is not one.
 *
 * Every writer of such records (cms/v2 posts, pages and media, both calendar dialects and whatever
 * goes through them: batch sub-requests, abilities, inline venues and organizers, and the importer)
 * takes its filter from here.
 */
import { can, type Caller } from '../auth/user';
import { URL_META as CALENDAR_URL_META } from '../calendar/fields';
import { escUrlRaw } from '../html/esc-url';
import { sanitizeTextField } from '../html/text';
import { isRecord } from '../rest/args';
import { kses, ksesTitle } from './kses';
import { POST_META } from './meta';

export interface TextFilter {
  /** Whether markup is saved as written (the writer has `unfiltered_html`). */
  readonly raw: boolean;
  /** A title (title_save_pre). */
  title(text: string): string;
  /** Content or an excerpt (content_save_pre, excerpt_save_pre). */
  html(text: string): string;
  /** A plain-text field. */
  text(text: string): string;
  /** A URL field (esc_url_raw, for every writer). */
  url(text: string): string;
  /** Meta changes with each known key's value filtered as its kind says; other keys and non-strings as given. */
  meta<T extends Record<string, unknown>>(changes: T): T;
}

/** Meta keys holding a URL: the calendar's (its field tables, libs/calendar/fields.ts). */
const URL_META = new Set<string>(CALENDAR_URL_META);
/** The footnotes of a post: JSON text of `[{id, content}]`. */
const FOOTNOTES = 'footnotes';
/** An attachment's alternative text (saved through sanitize_text_field by every writer). */
export const ALT_TEXT_META = '_wp_attachment_image_alt';
/** Meta keys holding plain text: every registered string key but the URLs and the footnotes, and the alternative text. */
const TEXT_META = new Set<string>([
  ...Object.entries(POST_META)
    .filter(([k, v]) => v.type === 'string' && !URL_META.has(k) && k !== FOOTNOTES)
    .map(([k]) => k),
  ALT_TEXT_META,
]);

/** wp_filter_post_kses over each note of the footnotes JSON; text that is not that JSON is filtered as content. */
function footnotes(json: string): string {
  let notes: unknown;
  try {
    notes = JSON.parse(json);
  } catch {
    return kses(json);
  }
  if (!Array.isArray(notes)) return kses(json);
  return JSON.stringify(notes.map((n: unknown) => (isRecord(n) && typeof n.content === 'string' ? { ...n, content: kses(n.content) } : n)));
}

function filterMeta<T extends Record<string, unknown>>(changes: T, f: TextFilter): T {
  const out: Record<string, unknown> = { ...changes };
  for (const [k, v] of Object.entries(changes)) {
    if (typeof v !== 'string') continue;
    if (URL_META.has(k)) out[k] = f.url(v);
    else if (!f.raw && TEXT_META.has(k)) out[k] = f.text(v);
    else if (!f.raw && k === FOOTNOTES) out[k] = footnotes(v);
  }
  // Boundary: the same keys as given, only string values replaced by strings.
  return out as T;
}

function makeFilter(raw: boolean): TextFilter {
  const f: TextFilter = {
    raw,
    title: raw ? (t) => t : ksesTitle,
    html: raw ? (t) => t : (t) => kses(t),
    text: raw ? (t) => t : (t) => sanitizeTextField(t, true),
    url: (t) => escUrlRaw(t.trim()),
    meta: (changes) => filterMeta(changes, f),
  };
  return f;
}

const RAW = makeFilter(true);
const FILTERED = makeFilter(false);

/** The filter of a writer: raw markup with `unfiltered_html`, the reference's kses filters without. */
export function textFilterFor(user: Caller): TextFilter {
  return can(user, 'unfiltered_html') ? RAW : FILTERED;
}

/** Third-party text (imported feeds): filtered as an author's, whoever owns the import. */
export const THIRD_PARTY: TextFilter = FILTERED;
