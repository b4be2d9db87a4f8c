/** The incremental reader of the import command: any chunking gives the same elements; bad documents are refused. */
import { Readable } from 'node:stream';
import { JsonArrayError, jsonArrayElements, jsonArrayValues } from '../../scripts/import/json-array';

async function all(text: string, chunk: number): Promise<unknown[]> {
  const parts: Buffer[] = [];
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += chunk) parts.push(buf.subarray(i, i + chunk));
  const out: unknown[] = [];
  for await (const v of jsonArrayValues(Readable.from(parts))) out.push(v);
  return out;
}

const doc = [
  { title: 'A, "quoted" [not] {a} structure', venue: { venue: 'Hall ]', tags: ['x', 'y'] } },
  { title: 'Café ☕ – ünïcödé', n: 2, nested: [[1, 2], { a: '\\' }] },
  'a string',
  42,
  null,
  { title: 'escaped \\" quote and backslash \\\\' },
];

it.each([1, 2, 3, 7, 64, 100000])('reads every element whatever the chunk size (%i bytes)', async (chunk) => {
  expect(await all(JSON.stringify(doc, null, 2), chunk)).toEqual(doc);
  expect(await all(JSON.stringify(doc), chunk)).toEqual(doc);
});

it('reads an empty array and surrounding whitespace', async () => {
  expect(await all(' \n [ \n ] \n', 3)).toEqual([]);
});

it.each([
  ['an object at the top', '{"a": 1}'],
  ['an unclosed array', '[{"a": 1},'],
  ['text after the array', '[1] x'],
  ['nothing', '   '],
])('refuses %s', async (_label, text) => {
  await expect(all(text, 4)).rejects.toThrow(JsonArrayError);
});

it('names a broken element', async () => {
  await expect(all('[{"a": 1}, {"b": nope}]', 5)).rejects.toThrow('element 1 is not valid JSON');
});

it('keeps memory to one element: elements come out before the stream ends', async () => {
  let pushed = 0;
  async function* endless() {
    yield '[';
    for (;;) {
      pushed++;
      yield `${pushed > 1 ? ',' : ''}{"n": ${pushed}}`;
    }
  }
  const seen: string[] = [];
  for await (const e of jsonArrayElements(endless())) {
    seen.push(e);
    if (seen.length === 1000) break;
  }
  expect(seen[999]).toBe('{"n": 1000}');
  expect(pushed).toBeLessThan(1010);
});
