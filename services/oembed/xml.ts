/**
 * The `format=xml` serialisation of an oEmbed answer (reference: _oembed_create_xml, then
 * SimpleXMLElement::asXML): `<oembed>` with one element per field, values escaped as esc_html does
 * (existing character references kept), `false` and empty values as empty elements, nested lists as
 * nested elements with numeric keys named `oembed`.
 */
import { isRecord } from '#libs/rest/args';
import type { RawBody } from '#libs/rest/service';

export const XML_CONTENT_TYPE = 'text/xml; charset=UTF-8';

const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

/** esc_html without double encoding: character references and XML's own named entities stay. */
function escapeText(value: string): string {
  return value
    .replace(/&(?!#\d+;|#x[0-9a-f]+;|(?:amp|lt|gt|quot|apos);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

function scalar(value: unknown): string {
  if (value === false || value === null || value === undefined) return '';
  if (value === true) return '1';
  return escapeText(String(value));
}

function elements(data: Record<string, unknown> | unknown[]): string {
  let out = '';
  for (const [rawKey, value] of Object.entries(data)) {
    const key = /^\d+$/.test(rawKey) ? 'oembed' : rawKey;
    // A key that cannot be an element name is left out rather than making the document unreadable.
    if (!XML_NAME.test(key)) continue;
    if (Array.isArray(value) || isRecord(value)) {
      const inner = elements(value);
      out += inner ? `<${key}>${inner}</${key}>` : `<${key}/>`;
    } else {
      const text = scalar(value);
      out += text ? `<${key}>${text}</${key}>` : `<${key}/>`;
    }
  }
  return out;
}

export function oembedXml(data: Record<string, unknown>): string {
  return `<?xml version="1.0"?>\n<oembed>${elements(data)}</oembed>\n`;
}

export function xmlBody(data: Record<string, unknown>): RawBody {
  return { contentType: XML_CONTENT_TYPE, text: oembedXml(data) };
}
