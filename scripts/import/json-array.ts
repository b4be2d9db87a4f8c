/**
 * Reads a JSON document whose top level is an array one element at a time, from a stream of chunks,
 * so a feed of any length is read in the memory of its largest element. Each element comes out as its
 * JSON text (parse it with JSON.parse, or only measure it); anything that is not one well-formed array
 * raises an error naming the byte offset.
 */
import { StringDecoder } from 'node:string_decoder';

export class JsonArrayError extends Error {}

const WS = new Set([' ', '\t', '\n', '\r']);

export async function* jsonArrayElements(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let state: 'start' | 'value' | 'after' | 'done' = 'start';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let current = '';
  let offset = 0;
  let sawElement = false;

  const fail = (what: string, at: number): never => {
    throw new JsonArrayError(`not a JSON array of events: ${what} at character ${at}`);
  };

  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (state === 'start') {
        if (WS.has(c) || (offset + i === 0 && c === '\ufeff')) continue;
        if (c !== '[') fail(`expected [ but found ${JSON.stringify(c)}`, offset + i);
        state = 'after';
        from = i + 1;
        continue;
      }
      if (state === 'done') {
        if (!WS.has(c)) fail(`unexpected ${JSON.stringify(c)} after the array`, offset + i);
        continue;
      }
      if (state === 'after') {
        // Between elements: whitespace, a comma, the end, or the first character of an element.
        if (WS.has(c)) continue;
        if (c === ']') {
          state = 'done';
          continue;
        }
        if (c === ',') {
          if (!sawElement) fail('unexpected ,', offset + i);
          continue;
        }
        state = 'value';
        sawElement = true;
        from = i;
        current = '';
      }
      // Inside an element.
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) {
          // The array's own closing bracket right after a scalar element.
          yield (current + text.slice(from, i)).trim();
          current = '';
          state = 'done';
          continue;
        }
        depth--;
        if (depth === 0) {
          yield current + text.slice(from, i + 1);
          current = '';
          state = 'after';
        }
      } else if (c === ',' && depth === 0) {
        yield (current + text.slice(from, i)).trim();
        current = '';
        state = 'after';
      }
    }
    if (state === 'value') current += text.slice(from);
    offset += text.length;
  }
  // (Widened: the compiler cannot follow the assignments inside the loop.)
  const end = state as string;
  if (end !== 'done') fail(end === 'start' ? 'no data' : 'the array is not closed', offset);
}

/** Parses each element; a broken element raises an error naming its position in the array. */
export async function* jsonArrayValues(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<unknown> {
  let n = 0;
  for await (const text of jsonArrayElements(chunks)) {
    try {
      yield JSON.parse(text);
    } catch (e) {
      throw new JsonArrayError(`element ${n} is not valid JSON: ${(e as Error).message}`);
    }
    n++;
  }
}
