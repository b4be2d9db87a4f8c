import { metricsText, observeJob, observeRequest, setQueueDepthSource } from './metrics';

function line(body: string, prefix: string): string | undefined {
  return body.split('\n').find((l) => l.startsWith(prefix));
}

afterEach(() => setQueueDepthSource(undefined));

describe('metrics', () => {
  test('serves the Prometheus text format with the default process metrics', async () => {
    const { contentType, body } = await metricsText();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });

  test('observeRequest feeds the request counter and duration histogram', async () => {
    observeRequest('get', '/cms/v2/posts', 200, 0.02);
    observeRequest('GET', '/cms/v2/posts', 200, 0.2);
    observeRequest('POST', '/cms/v2/posts', 400, 0.01);
    const { body } = await metricsText();
    expect(line(body, 'http_requests_total{method="GET",route="/cms/v2/posts",status="200"}')).toMatch(/ 2$/);
    expect(line(body, 'http_requests_total{method="POST",route="/cms/v2/posts",status="400"}')).toMatch(/ 1$/);
    expect(line(body, 'http_request_duration_seconds_count{method="GET",route="/cms/v2/posts",status="200"}')).toMatch(/ 2$/);
    expect(line(body, 'http_request_duration_seconds_bucket{le="0.05",method="GET",route="/cms/v2/posts",status="200"}')).toMatch(/ 1$/);
  });

  test('observeJob feeds the job counter and duration histogram', async () => {
    observeJob('batch.run', 'retry', 0.5);
    observeJob('batch.run', 'completed', 1.5);
    const { body } = await metricsText();
    expect(line(body, 'jobs_total{name="batch.run",outcome="retry"}')).toMatch(/ 1$/);
    expect(line(body, 'jobs_total{name="batch.run",outcome="completed"}')).toMatch(/ 1$/);
    expect(line(body, 'job_duration_seconds_count{name="batch.run"}')).toMatch(/ 2$/);
    expect(line(body, 'job_duration_seconds_sum{name="batch.run"}')).toMatch(/ 2$/);
  });

  test('the queue-depth gauge reads its source at scrape time, and a failing source leaves it empty', async () => {
    let batch = 3;
    setQueueDepthSource(async () => ({ batch, oembed: 0, import: 1 }));
    let { body } = await metricsText();
    expect(line(body, 'queue_depth{queue="batch"}')).toBe('queue_depth{queue="batch"} 3');
    expect(line(body, 'queue_depth{queue="import"}')).toBe('queue_depth{queue="import"} 1');

    batch = 5;
    ({ body } = await metricsText());
    expect(line(body, 'queue_depth{queue="batch"}')).toBe('queue_depth{queue="batch"} 5');

    setQueueDepthSource(async () => {
      throw new Error('redis down');
    });
    ({ body } = await metricsText());
    expect(line(body, 'queue_depth{')).toBeUndefined();
    expect(body).toContain('# TYPE queue_depth gauge');
  });
});
