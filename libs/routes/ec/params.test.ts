/**
 * ec/v1 argument errors as the reference's parameter types report them: the type's own check runs
 * first, on the value as sent, on every ec/v1 route (lists, single reads, writes, deletes).
 */
import { startTestApp, type TestApp } from '../../../test/support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const positive = (name: string) => ({
  code: 'tec_rest_invalid_positive_integer_argument',
  message: `Argument \`{${name}}\` must be a positive integer.`,
  data: { status: 400, argument: name, details: `The argument \`{${name}}\` is not a positive integer.` },
});

/** The invalid parameters of a 400 answer: their messages and their detail codes. */
function failure(res: { status: number; body: any }) {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('rest_invalid_param');
  const details = res.body.data.details as Record<string, { code: string }>;
  return { params: res.body.data.params as Record<string, string>, codes: Object.fromEntries(Object.entries(details).map(([k, d]) => [k, d.code])) };
}

describe('positive integers', () => {
  it.each(['events', 'organizers', 'venues'])('%s lists: page and per_page are refused before their bounds', async (plural) => {
    for (const q of ['per_page=0', 'per_page=-3', 'per_page=abc', 'per_page=2.5', 'page=0', 'page=x']) {
      const name = q.split('=')[0];
      const res = await app.request('GET', `/ec/v1/${plural}?${q}`);
      const f = failure(res);
      expect([q, res.body.data.details[name]]).toEqual([q, positive(name)]);
      expect(f.params[name]).toBe(`Argument \`{${name}}\` must be a positive integer.`);
      expect(res.body.message).toBe(`Invalid parameter(s): ${name}`);
    }
    // A positive integer passes the type check; the declared maximum still applies.
    expect(failure(await app.request('GET', `/ec/v1/${plural}?per_page=101`)).codes).toEqual({ per_page: 'rest_out_of_bounds' });
    expect((await app.request('GET', `/ec/v1/${plural}?per_page=5&page=1`)).status).toBe(200);
  });

  it('post_parent and event filters, write ids and durations use the same type', async () => {
    expect(failure(await app.request('GET', '/ec/v1/events?post_parent=0')).codes).toEqual({ post_parent: 'tec_rest_invalid_positive_integer_argument' });
    expect(failure(await app.request('GET', '/ec/v1/venues?event=zero')).codes).toEqual({ event: 'tec_rest_invalid_positive_integer_argument' });
    const write = await app.admin('POST', '/ec/v1/events', { body: { title: 'x', author: 0, duration: 'long' } });
    expect(failure(write).codes).toEqual({ author: 'tec_rest_invalid_positive_integer_argument', duration: 'tec_rest_invalid_positive_integer_argument' });
  });

  it('the id in the path of single reads, updates and deletes', async () => {
    for (const plural of ['events', 'organizers', 'venues']) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await app.admin(method, `/ec/v1/${plural}/0`, method === 'PUT' ? { body: { title: 'x' } } : {});
        expect([plural, method, res.body.data?.details?.id]).toEqual([plural, method, positive('id')]);
      }
    }
  });
});

describe('date-times', () => {
  it('list filters accept what strtotime reads and refuse the rest', async () => {
    for (const name of ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']) {
      const res = await app.request('GET', `/ec/v1/events?${name}=not-a-date`);
      expect(res.body.data.details[name]).toEqual({
        code: 'tec_rest_invalid_date_time_argument',
        message: `Argument \`{${name}}\` must be a date-time.`,
        data: { status: 400, argument: name, details: `We cannot parse the argument \`{${name}}\` as a date-time.` },
      });
      for (const ok of ['tomorrow', '2031-01-01', '2031-01-01 10:00:00', '1924982400']) {
        expect([name, ok, (await app.request('GET', `/ec/v1/events?${name}=${encodeURIComponent(ok)}`)).status]).toEqual([name, ok, 200]);
      }
    }
  });

  it('written dates must match their pattern first', async () => {
    const res = await app.admin('POST', '/ec/v1/events', { body: { title: 'x', end_date: '2031-01-01', date: 'next week' } });
    const f = failure(res);
    expect(f.codes).toEqual({ end_date: 'tec_rest_invalid_date_time_argument', date: 'tec_rest_invalid_date_time_argument' });
    expect(f.params.end_date).toBe('Argument `{end_date}` must match the pattern.');
    // Matching the pattern is enough: the post date is not held to RFC 3339's calendar.
    const ok = await app.admin('POST', '/ec/v1/events', {
      body: { title: 'x', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 12:00:00', date: '2031-01-01T10:00:00' },
    });
    expect(ok.status).toBe(201);
  });
});

describe('callbacks that only answer false: "Invalid parameter." and no detail', () => {
  it('enums of text arguments and of the status lists', async () => {
    for (const [path, q, name] of [
      ['/ec/v1/events', 'status=foo', 'status'],
      ['/ec/v1/events', 'status=publish,trash', 'status'],
      ['/ec/v1/organizers', 'status=any', 'status'],
      ['/ec/v1/venues', 'status=inherit', 'status'],
      ['/ec/v1/events', 'orderby=price', 'orderby'],
      ['/ec/v1/events', 'order=asc', 'order'],
    ]) {
      const f = failure(await app.request('GET', `${path}?${q}`));
      expect([q, f.params, f.codes]).toEqual([q, { [name]: 'Invalid parameter.' }, {}]);
    }
    expect((await app.request('GET', '/ec/v1/events?status=publish')).status).toBe(200);
  });

  it('text fields that are not strings, and write enums', async () => {
    const f = failure(
      await app.admin('POST', '/ec/v1/venues', { body: { title: ['x'], status: 'trash', comment_status: 'maybe', city: 'a:1:{i:0;s:1:"x";}' } }),
    );
    expect(f.params).toEqual({ title: 'Invalid parameter.', status: 'Invalid parameter.', comment_status: 'Invalid parameter.', city: 'Invalid parameter.' });
    expect(f.codes).toEqual({});
  });

  it('id lists: an array or a comma list; a lone value in the query is refused', async () => {
    expect(failure(await app.request('GET', '/ec/v1/events?tags=5')).params).toEqual({ tags: 'Invalid parameter.' });
    expect((await app.request('GET', '/ec/v1/events?tags[]=5')).status).toBe(200);
    expect((await app.request('GET', '/ec/v1/events?categories=5,6')).status).toBe(200);
    // Items are checked by their own type, which the reference builds under a placeholder name.
    const bad = await app.request('GET', '/ec/v1/events?categories=5,x');
    expect(bad.body.data.details.categories).toEqual(positive('example'));
    const body = await app.admin('POST', '/ec/v1/events', { body: { title: 'x', organizers: [0] } });
    expect(failure(body).codes).toEqual({ organizers: 'tec_rest_invalid_positive_integer_argument' });
  });
});

describe('emails and URLs', () => {
  it('organizers and venues', async () => {
    const f = failure(await app.admin('POST', '/ec/v1/organizers', { body: { title: 'x', email: 'nope', website: 'not a url' } }));
    expect(f.codes).toEqual({ email: 'tec_rest_invalid_email_argument', website: 'tec_rest_invalid_uri_argument' });
    expect(f.params.email).toBe('Argument `{email}` must be a valid email address.');
    const v = failure(await app.admin('POST', '/ec/v1/venues', { body: { title: 'x', website: 'ftp//x' } }));
    expect(v.codes).toEqual({ website: 'tec_rest_invalid_uri_argument' });
  });
});

describe('the published arguments are unchanged', () => {
  it('the index shows the schema keywords, not the checks', async () => {
    const res = await app.request('GET', '/ec/v1');
    const list = res.body.routes['/ec/v1/events'].endpoints[0].args;
    expect(list.per_page).toEqual({
      description: 'Maximum number of items to be returned in result set.',
      type: 'integer',
      default: 10,
      minimum: 1,
      maximum: 100,
      required: false,
    });
    expect(list.start_date).toEqual({
      description: 'Limit events to those starting after the specified date.',
      type: 'string',
      format: 'date-time',
      required: false,
    });
    const opts = await app.request('OPTIONS', '/ec/v1/events/5');
    expect(opts.body.endpoints[0].args.id).toEqual({ description: 'Unique identifier for the event.', type: 'integer', required: false });
  });
});

describe('date-times out of range', () => {
  it('refuses a timestamp or text that names no moment a date can hold', async () => {
    for (const q of ['end_date=-1e309', 'ends_before=1e21', 'starts_after=99999999999999999999', 'start_date=1e309']) {
      const name = q.split('=')[0];
      expect([q, failure(await app.request('GET', `/ec/v1/events?${q}`)).codes]).toEqual([q, { [name]: 'tec_rest_invalid_date_time_argument' }]);
    }
    // Numeric text in exponent notation is a timestamp like any other.
    expect((await app.request('GET', '/ec/v1/events?starts_after=1e3')).status).toBe(200);
  });
});
