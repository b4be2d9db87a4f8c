/**
 * Plain-text fields as the reference saves them: sanitize_text_field (no tags, no line breaks or tabs,
 * no runs of spaces, no percent-encoded octets, trimmed; a `<` that starts no tag kept as `&lt;`), and
 * the chain its name fields go through (pre_term_name, pre_user_display_name, pre_user_first_name,
 * pre_user_last_name, pre_user_nickname: sanitize_text_field, kses, then `&`, `<` and `>` as entities).
 */
import { phpTrim } from './bad-protocol';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `&` that starts no character reference. */
const BARE_AMP = /&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g;

/** esc_html's escaping of a `<` run that never closes (wp_pre_kses_less_than's callback). */
const escapeLoose = (s: string) => s.replace(BARE_AMP, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');

/** wp_strip_all_tags: scripts and styles with their text, then every tag and comment; trimmed. */
export function stripAllTags(text: string): string {
  return phpTrim(
    text
      .replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '')
      .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
      .replace(/<[^>]*(?:>|$)/g, ''),
  );
}

/**
 * sanitize_text_field (sanitize_textarea_field with `keepNewlines`). Anything but a string or a number
 * is ''; so is text that is not well-formed (the reference's wp_check_invalid_utf8).
 */
export function sanitizeTextField(value: unknown, keepNewlines = false): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  let s = String(value);
  if (LONE_SURROGATE.test(s)) return '';
  if (s.includes('<')) {
    // A `<` that opens no tag stays as text (wp_pre_kses_less_than), then tags go.
    s = s.replace(/<[^>]*?(?=<|>|$)>?/g, (m) => (m.endsWith('>') ? m : escapeLoose(m)));
    s = stripAllTags(s).replace(/<\n/g, '&lt;\n');
  }
  if (!keepNewlines) s = s.replace(/[\r\n\t ]+/g, ' ');
  s = phpTrim(s);
  if (/%[a-f0-9]{2}/i.test(s)) {
    while (/%[a-f0-9]{2}/i.test(s)) s = s.replace(/%[a-f0-9]{2}/gi, '');
    s = phpTrim(s.replace(/ +/g, ' '));
  }
  return s;
}

/** _wp_specialchars without quotes and without encoding twice: `&`, `<` and `>` as entities. */
export function specialChars(text: string): string {
  return text.replace(BARE_AMP, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A name as the reference saves it (term names; a user's display name, first and last name, nickname):
 * sanitize_text_field, then special characters as entities. The kses step between them finds no tag left.
 */
export function nameField(value: unknown): string {
  return specialChars(sanitizeTextField(value));
}
