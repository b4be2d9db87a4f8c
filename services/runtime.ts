/**
 * Assembles the processes from one codebase: the all-in-one process, the gateway, each service and
 * the worker. Every process builds the same route registry; what differs is which services run
 * in-process and how the others are reached.
 */
import http, { type Server } from 'node:http';
import { Authenticator, FailureThrottle } from '#libs/auth/authenticate';
import { Nonces } from '#libs/auth/nonces';
import { UsersRepository } from '#libs/auth/users';
import { SERVICES, serviceUrl, type Config, type Role, type ServiceName } from '#libs/config/env';
import { ensureCollections } from '#libs/data/ensure';
import { logger } from '#libs/observability/logger';
import { setQueueDepthSource } from '#libs/observability/metrics';
import { JOB_NAMES, isQueueName, openQueue, createBullWorker } from '#libs/queue/index';
import type { JobHandlers, JobName, JobQueue, JobWorker, QueueName } from '#libs/queue/types';
import { JOBS } from '#libs/queue/types';
import { BatchLedger, runLedgeredBatch } from '#libs/rest/batch-ledger';
import type { RouteRegistry } from '#libs/rest/registry';
import { remoteDispatch } from '#libs/rest/remote';
import { RestServer } from '#libs/rest/server';
import type { Dispatch, ServiceApp } from '#libs/rest/service';
import { siteFrom, type Site } from '#libs/rest/site';
import { registry as buildRegistry } from '#libs/routes/index';
import { SiteSettings } from '#libs/settings/site-settings';
import { storageFor } from '#libs/media/storage';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { BATCH_TIMEOUT_MS as IMPORT_BATCH_TIMEOUT_MS, createAggregatorService } from './aggregator';
import { importJobHandlers } from './aggregator/import/jobs';
import { createCalendarService } from './calendar';
import { createContentService } from './content';
import { authorizePage } from './gateway/authorize';
import { calendarPage } from './gateway/calendar-page';
import { calendarSingles } from './gateway/calendar-single';
import { capConnectionsPerAddress, serverOptions } from './gateway/connections';
import { registerBuiltins } from './gateway/builtins';
import { createGatewayApp } from './gateway/http';
import { createServiceHost } from './host';
import { createOembedService } from './oembed';
import { oembedFetchHandler } from './oembed/fetch-job';
import { geocodeJobHandlers, geocodeRates } from '#libs/geocode/jobs';

export interface ServiceFactoryOptions {
  registry: RouteRegistry;
  store: Store;
  site: Site;
  config: Config;
  /** The process's producer queue, opened at the first call (services that enqueue nothing never connect). */
  queue: () => JobQueue;
  /** The process's site settings (they keep `site` current). */
  settings: SiteSettings;
}

/** How each service is built; a service whose routes are not declared yet serves none. */
const FACTORIES: Partial<Record<ServiceName, (o: ServiceFactoryOptions) => Promise<ServiceApp>>> = {
  content: createContentService,
  calendar: createCalendarService,
  oembed: createOembedService,
  aggregator: createAggregatorService,
};

export interface Running {
  /** The HTTP server of the process. */
  server: Server;
  close(): Promise<void>;
}

export async function openConfiguredStore(config: Config): Promise<Store> {
  const store = await openStore({ mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB, dataDir: config.DATA_DIR });
  await ensureCollections(store);
  return store;
}

async function buildServices(names: ServiceName[], o: ServiceFactoryOptions): Promise<Partial<Record<ServiceName, ServiceApp>>> {
  const out: Partial<Record<ServiceName, ServiceApp>> = {};
  for (const name of names) {
    const factory = FACTORIES[name];
    if (factory) out[name] = await factory(o);
  }
  return out;
}

/** How long the gateway waits for a service's answer. */
const SERVICE_CALL_TIMEOUT_MS = 30_000;
/**
 * The gateway waits for a service at least as long as the service's own deadline, so that the service's
 * answer is the one the client gets: an import batch waits up to IMPORT_BATCH_TIMEOUT_MS for its jobs and
 * then answers 503 without moving the import on. Were the gateway to give up first, the client would
 * resend a batch that the service then stores, and the resend would find its hash already consumed.
 */
const CALL_TIMEOUT_MS: Partial<Record<ServiceName, number>> = { aggregator: IMPORT_BATCH_TIMEOUT_MS + 15_000 };

function remoteServices(config: Config): Partial<Record<ServiceName, Dispatch>> {
  const out: Partial<Record<ServiceName, Dispatch>> = {};
  for (const s of SERVICES) {
    const url = serviceUrl(config, s);
    if (url && config.SERVICE_SECRET) out[s] = remoteDispatch(url, config.SERVICE_SECRET, CALL_TIMEOUT_MS[s] ?? SERVICE_CALL_TIMEOUT_MS);
  }
  return out;
}

/** What job handlers are given: a REST pipeline for sub-requests, the store, the producer queue. */
export interface JobDeps {
  rest: RestServer;
  store: Store;
  site: Site;
  config: Config;
  queue: JobQueue;
}

/** Each module that runs queued work adds its handlers here; a job name may appear once. */
const JOB_FACTORIES: Array<(d: JobDeps) => JobHandlers> = [
  ({ rest, store }) => {
    const ledger = new BatchLedger(store);
    return { 'batch.run': (data, job) => runLedgeredBatch(rest, ledger, data, job.id) };
  },
  ({ store, config }) => ({ 'oembed.fetch': oembedFetchHandler({ store, config }) }),
  ({ store, site, config, queue }) => importJobHandlers({ store, site, config, queue: () => queue }),
  ({ store, config }) => geocodeJobHandlers({ store, config }),
];

/** Copies the handler of `name`, if any; the generic K keeps the name and its handler's type together. */
function copyHandler<K extends JobName>(from: JobHandlers, into: JobHandlers, name: K): void {
  const handler = from[name];
  if (handler === undefined) return;
  if (into[name]) throw new Error(`job ${name} has two handlers`);
  into[name] = handler;
}

/** Fills `into` with every module's handlers (the inline queue reads it at run time). */
function jobHandlers(deps: JobDeps, into: JobHandlers = {}): JobHandlers {
  for (const factory of JOB_FACTORIES) {
    const made = factory(deps);
    for (const name of JOB_NAMES) copyHandler(made, into, name);
  }
  return into;
}

/** The handlers of the jobs of some queues (a worker is given only those it consumes). */
function handlersOf(queues: QueueName[], handlers: JobHandlers): JobHandlers {
  const out: JobHandlers = {};
  for (const name of JOB_NAMES) if (queues.includes(JOBS[name].queue)) copyHandler(handlers, out, name);
  return out;
}

/** Queues that have handlers for all their jobs in this build. */
function servedQueues(wanted: string[], handlers: JobHandlers): QueueName[] {
  const jobsOf = (q: string) => JOB_NAMES.filter((j) => JOBS[j].queue === q);
  return wanted.filter(isQueueName).filter((q) => jobsOf(q).length > 0 && jobsOf(q).every((j) => handlers[j]));
}

/** Starts the HTTP server; `clients`: clients connect to it directly (the gateway), so each address is capped. */
function listen(app: { callback(): (...args: never[]) => void }, config: Config, clients = false): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(serverOptions(config), app.callback() as never);
    if (clients) capConnectionsPerAddress(server, config.MAX_CONNECTIONS_PER_ADDRESS);
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve(server));
  });
}

/**
 * Stops accepting connections and waits for in-flight requests, at most `graceMs`. Keep-alive
 * connections become idle as their last answer is sent; they are closed at once and then every 100 ms
 * rather than waiting for the keep-alive timeout. After the grace, whatever is left is closed.
 */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export async function start(role: Role, config: Config): Promise<Running> {
  if (!process.env.JEST_WORKER_ID) logger.level = config.LOG_LEVEL;
  const site = siteFrom(config);
  const registry = buildRegistry(config.EDITION);
  const closers: Array<() => Promise<void>> = [];
  let server: Server;

  if (role === 'all' || role === 'gateway') {
    const store = await openConfiguredStore(config);
    closers.push(() => store.close());
    const settings = await SiteSettings.open(store, site, config);
    closers.unshift(async () => settings.stop());
    // The inline queue reads `handlers` when a job runs, so services may hold the queue before it is filled.
    const handlers: JobHandlers = {};
    const queue: JobQueue = openQueue({ REDIS_URL: config.REDIS_URL, QUEUE_PREFIX: config.QUEUE_PREFIX }, handlers, geocodeRates(config));
    const services = role === 'all' ? await buildServices(SERVICES, { registry, store, site, config, queue: () => queue, settings }) : {};
    const dispatchers: Partial<Record<ServiceName, Dispatch>> =
      role === 'all' ? Object.fromEntries(Object.entries(services).map(([k, app]) => [k, app!.dispatch])) : remoteServices(config);
    const rest = new RestServer(registry, site, dispatchers);
    jobHandlers({ rest, store, site, config, queue }, handlers);
    closers.unshift(() => queue.close());
    setQueueDepthSource(() => queue.depths());
    if (role === 'all' && config.REDIS_URL) {
      // With Redis, the all-in-one process also consumes its own queues.
      const queues = servedQueues(config.WORKER_QUEUES, handlers);
      if (queues.length) {
        const worker = createBullWorker({
          redisUrl: config.REDIS_URL,
          prefix: config.QUEUE_PREFIX,
          queues,
          concurrency: config.WORKER_CONCURRENCY,
          handlers: handlersOf(queues, handlers),
          rates: geocodeRates(config),
        });
        await worker.start();
        closers.unshift(() => worker.close(config.SHUTDOWN_TIMEOUT_MS));
      }
    }
    registerBuiltins(rest, queue, config.BATCH_TIMEOUT_MS, new BatchLedger(store));
    const users = new UsersRepository(store);
    const throttle = new FailureThrottle(config.AUTH_FAILURE_LIMIT, config.AUTH_FAILURE_WINDOW_SECONDS * 1000);
    const nonces = await Nonces.open(store, config.SERVICE_SECRET);
    const auth = new Authenticator(users, throttle);
    const app = createGatewayApp({
      rest,
      auth,
      site,
      pages: authorizePage({ site, users, throttle, nonces }),
      // The gateway reads uploaded files from the store's own file storage (GridFS in a cluster).
      files: storageFor(store, config.DATA_DIR),
      calendar: calendarPage({ site, rest, nonces }),
      calendarSingles: calendarSingles({ site, rest, auth }),
      maxBodyBytes: config.MAX_BODY_BYTES,
      trustProxyHops: config.TRUST_PROXY_HOPS,
      ready: async () => {
        await store.ping();
        await queue.ping();
      },
    });
    server = await listen(app, config, true);
  } else if (role === 'worker') {
    const store = await openConfiguredStore(config);
    // Imports read the site's time zone: keep it current here too.
    const settings = await SiteSettings.open(store, site, config);
    closers.push(async () => settings.stop());
    const rest = new RestServer(registry, site, remoteServices(config));
    const queue = openQueue({ REDIS_URL: config.REDIS_URL, QUEUE_PREFIX: config.QUEUE_PREFIX }, {});
    const handlers = jobHandlers({ rest, store, site, config, queue });
    const queues = servedQueues(config.WORKER_QUEUES, handlers);
    if (!queues.length) throw new Error(`WORKER_QUEUES (${config.WORKER_QUEUES.join(', ')}) names no queue this build has handlers for`);
    const worker: JobWorker = createBullWorker({
      redisUrl: config.REDIS_URL!,
      prefix: config.QUEUE_PREFIX,
      queues,
      concurrency: config.WORKER_CONCURRENCY,
      handlers: handlersOf(queues, handlers),
      rates: geocodeRates(config),
    });
    await worker.start();
    setQueueDepthSource(() => queue.depths());
    closers.push(
      () => worker.close(config.SHUTDOWN_TIMEOUT_MS),
      () => queue.close(),
      () => store.close(),
    );
    server = await listen(
      createServiceHost({
        maxBodyBytes: config.MAX_BODY_BYTES,
        ready: async () => {
          await store.ping();
          await queue.ping();
        },
      }),
      config,
    );
    logger.info({ queues }, 'worker consuming');
  } else {
    const store = await openConfiguredStore(config);
    closers.push(() => store.close());
    const settings = await SiteSettings.open(store, site, config);
    closers.unshift(async () => settings.stop());
    // A service that enqueues work opens its producer queue on first use; without Redis its jobs run here.
    let queue: JobQueue | undefined;
    const openServiceQueue = (): JobQueue => {
      if (!queue) {
        const handlers: JobHandlers = {};
        queue = openQueue({ REDIS_URL: config.REDIS_URL, QUEUE_PREFIX: config.QUEUE_PREFIX }, handlers, geocodeRates(config));
        if (!config.REDIS_URL) jobHandlers({ rest: new RestServer(registry, site, remoteServices(config)), store, site, config, queue }, handlers);
      }
      return queue;
    };
    closers.unshift(async () => queue?.close());
    const services = await buildServices([role], { registry, store, site, config, queue: openServiceQueue, settings });
    server = await listen(
      createServiceHost({ service: services[role], secret: config.SERVICE_SECRET, maxBodyBytes: config.MAX_BODY_BYTES, ready: () => store.ping() }),
      config,
    );
  }

  // The processes that serve the public pages say where the calendar is.
  const pages = role === 'all' || role === 'gateway' ? { calendar: `${site.home}/events/` } : {};
  logger.info({ role, port: config.PORT, restRoot: site.restRoot, ...pages }, 'listening');
  return {
    server,
    async close() {
      await closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
      for (const c of closers) {
        try {
          await c();
        } catch (e) {
          logger.warn({ err: e }, 'error while closing');
        }
      }
    },
  };
}
