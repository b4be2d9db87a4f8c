/**
 * Fetching a remote image for the media library (the reference's download_url + media_handle_sideload),
 * through the one outbound guard: public addresses only (redirects included), a deadline, and at most
 * the upload size limit. The file name comes from the URL's path and must name an image type.
 */
import { guardedGet, outboundPolicy, RefusedError, type FetchPolicy } from '../net/outbound';
import { RestError } from '../rest/errors';
import { extensionMime } from './mime';

const FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

/** The policy of image fetches: `allowHosts` exempts named (intranet or test) hosts from the address rules. */
export function imageFetchPolicy(allowHosts: readonly string[], maxBytes: number): FetchPolicy {
  return outboundPolicy(allowHosts, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes, maxRedirects: MAX_REDIRECTS });
}

export interface FetchedImage {
  url: string;
  name: string;
  bytes: Buffer;
}

const invalidUrl = (message: string) => new RestError('rest_invalid_url', message, 400);

/** The file name of an image URL, or the error the reference gives for it. */
export function imageNameOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    throw invalidUrl('Invalid URL. Provide a valid, publicly reachable HTTP or HTTPS image URL.');
  }
  let name = path.split('/').pop() ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape stays as it is.
  }
  if (!name) throw invalidUrl('Could not determine a filename from the provided URL.');
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1] ?? '';
  if (!extensionMime(ext)?.startsWith('image/')) throw invalidUrl('The provided URL does not point to a supported image file.');
  return name;
}

/**
 * Downloads an image. Throws RestError: `rest_invalid_url` (400) for a refused or failing address,
 * `rest_upload_file_too_big` (400) beyond the limit.
 */
export async function fetchImage(url: string, policy: FetchPolicy, tooBig: () => RestError): Promise<FetchedImage> {
  const name = imageNameOf(url);
  let res;
  try {
    res = await guardedGet(url, policy, { accept: 'image/*', truncate: false });
  } catch (e) {
    if (e instanceof RefusedError) {
      if (/larger than/.test(e.message)) throw tooBig();
      throw invalidUrl(`The image URL was refused: ${e.message}.`);
    }
    throw invalidUrl('The image could not be downloaded from the provided URL.');
  }
  if (res.status !== 200) throw invalidUrl(`The image could not be downloaded from the provided URL (HTTP ${res.status}).`);
  if (!res.bytes.length) throw new RestError('rest_upload_no_data', 'No data supplied.', 400);
  return { url, name, bytes: res.bytes };
}
