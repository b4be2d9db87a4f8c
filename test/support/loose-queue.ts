/**
 * The queue as its own tests see it. They drive its mechanics with payloads of no real job's shape, so
 * they use it untyped: any data, any result (the typed surface is checked by the services' use of it).
 */
import type { EnqueueOptions, JobContext, JobHandlers, JobName, JobQueue } from '#libs/queue/types';

export interface LooseQueue extends Omit<JobQueue, 'run' | 'enqueue' | 'schedule'> {
  run<O = unknown>(name: JobName, data: unknown, options?: EnqueueOptions): Promise<O>;
  enqueue(name: JobName, data: unknown, options?: EnqueueOptions): Promise<string>;
  schedule(key: string, everyMs: number, name: JobName, data: unknown, opts?: { keepExisting?: boolean }): Promise<void>;
}
export type LooseHandlers = { [K in JobName]?: (data: never, job: JobContext) => Promise<unknown> };
export const loose = (queue: JobQueue) => queue as LooseQueue;
export const typed = (handlers: LooseHandlers) => handlers as JobHandlers;
