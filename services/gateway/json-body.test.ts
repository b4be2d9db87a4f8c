/** JSON bodies are decoded as the reference's json_decode decodes them, with its errors for what it refuses. */
import { errors } from '#libs/rest/errors';
import { JSON_MAX_DEPTH, jsonDepth, parseBody } from './middleware/parse-body';

const json = (text: string | Buffer) => parseBody(typeof text === 'string' ? Buffer.from(text) : text, 'application/json');

describe('JSON bodies', () => {
  it('parses well-formed JSON, including paired surrogates and brackets inside strings', () => {
    expect(json('{"a":"\\ud83d\\ude00","b":"[[{{"}')).toEqual({ bodyType: 'json', body: { a: '\u{1F600}', b: '[[{{' } });
    expect(json('{"title":"x"}').body).toEqual({ title: 'x' });
  });

  it('refuses invalid UTF-8 bytes (JSON_ERROR_UTF8)', () => {
    expect(json(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]))).toEqual({
      bodyType: 'none',
      jsonError: 'Malformed UTF-8 characters, possibly incorrectly encoded',
    });
    // A surrogate encoded as UTF-8 bytes is not UTF-8 either.
    expect(json(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])).jsonError).toBe('Malformed UTF-8 characters, possibly incorrectly encoded');
  });

  it('refuses unpaired surrogate escapes in values and keys (JSON_ERROR_UTF16)', () => {
    for (const text of ['{"a":"x\\ud800y"}', '["\\udc00"]', '{"\\ud800":1}', '{"a":{"b":["ok","\\udfff\\ud800"]}}']) {
      expect([text, json(text).jsonError]).toEqual([text, 'Single unpaired UTF-16 surrogate in unicode escape']);
    }
  });

  it('refuses nesting deeper than json_decode takes (JSON_ERROR_DEPTH), without walking it recursively', () => {
    expect(jsonDepth('[[]]')).toBe(2);
    expect(jsonDepth('{"a":"[[[[","b":[{}]}')).toBe(3);
    expect(jsonDepth('"\\"[["')).toBe(0);
    expect(json('['.repeat(JSON_MAX_DEPTH) + ']'.repeat(JSON_MAX_DEPTH)).bodyType).toBe('json');
    const deep = JSON_MAX_DEPTH + 1;
    expect(json('['.repeat(deep) + ']'.repeat(deep)).jsonError).toBe('Maximum stack depth exceeded');
    expect(json('{"a":'.repeat(1_000_000) + '1' + '}'.repeat(1_000_000)).jsonError).toBe('Maximum stack depth exceeded');
  });

  it('reports each refusal with json_decode error code', () => {
    expect(errors.invalidJson().toJSON().data).toEqual({ status: 400, json_error_code: 4, json_error_message: 'Syntax error' });
    expect(errors.invalidJson('Maximum stack depth exceeded').toJSON().data).toMatchObject({ json_error_code: 1 });
    expect(errors.invalidJson('Malformed UTF-8 characters, possibly incorrectly encoded').toJSON().data).toMatchObject({ json_error_code: 5 });
    expect(errors.invalidJson('Single unpaired UTF-16 surrogate in unicode escape').toJSON().data).toMatchObject({ json_error_code: 10 });
  });
});
