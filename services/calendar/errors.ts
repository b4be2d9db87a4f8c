/** The calendar's errors in the reference's words and codes (Messages.php). */
import { ParamError, RestError, invalidParams } from '#libs/rest/errors';

export type LinkedKind = 'venue' | 'organizer';

export const calendarErrors = {
  eventNotFound: (id: number) => new RestError('rest-event-not-found', `Event with ID ${id} does not exist.`, 404),
  invalidEventId: () => new RestError('rest-invalid-event-id', 'The specified ID is not a valid event.', 400),
  eventNoLongerAvailable: () => new RestError('event-no-longer-available', 'This event is no longer available', 403),
  eventNotAccessible: () => new RestError('event-not-accessible', 'The requested event is not accessible', 403),
  eventPasswordProtected: () => new RestError('event-password-protected', 'The requested event is not accessible without a password', 403),
  archivePageNotFound: (what: 'event' | LinkedKind) =>
    new RestError(`${what}-archive-page-not-found`, `The requested ${what} archive page does not exist`, 404),
  inTrash: (what: 'event' | LinkedKind) => new RestError(`${what}-is-in-trash`, `The ${what} is already trashed`, 410),
  notAccessible: (what: LinkedKind) => new RestError(`${what}-not-accessible`, `The requested ${what} is not accessible`, 403),
  couldNotCreate: (what: LinkedKind, why: string) => new RestError(`could-not-create-${what}`, `The ${what} could not be created: ${why}`, 400),
  invalidLinkedPostId: (id: unknown) => new RestError('invalid-linked-post-id', 'The provided linked post ID is not valid', 400, { id }),
};

/** A failed parameter check done in the service (it needs stored data), reported like the gateway's. */
export function paramFailure(failures: Array<[string, ParamError | string]>): RestError | null {
  return failures.length ? invalidParams(failures) : null;
}

export const INVALID = 'Invalid parameter.';
