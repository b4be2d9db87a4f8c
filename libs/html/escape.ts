import { decodeHTML } from 'entities';

/** Text made safe inside HTML text and attribute values, as the reference's esc_html / esc_attr write it. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** Character references decoded as a browser decodes them in text (named, numeric, legacy without `;`). */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}
