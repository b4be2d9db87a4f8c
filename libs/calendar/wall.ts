/** A local date and clock time in some zone, read from text (a date alone has a zero clock). */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}
