/** What went wrong, for a message: a thrown error's own message, else the thrown value as text. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
