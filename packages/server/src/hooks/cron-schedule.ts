// Five-field cron schedules (minute hour day-of-month month day-of-week, in UTC): `*`, numbers, ranges
// `a-b`, steps `*/n` and `a-b/n`, lists `a,b`. Day of month and day of week restrict together as cron
// has it: when both are restricted, a day matching either runs.
import { WeftServerError } from '../errors/server-error.js';

/** A parsed schedule: the allowed values of each field. */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  readonly daysRestricted: boolean;
  readonly weekdaysRestricted: boolean;
}

const fields = [
  ['minute', 0, 59],
  ['hour', 0, 23],
  ['day of month', 1, 31],
  ['month', 1, 12],
  ['day of week', 0, 7],
] as const;

/**
 * Parses a schedule.
 *
 * @throws WeftServerError `INVALID_ARGUMENT` naming the field at fault.
 */
export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5)
    throw new WeftServerError(
      'INVALID_ARGUMENT',
      `"schedule" must have 5 fields (minute hour day month weekday), got "${expression}"`,
    );
  const sets = parts.map((part, index) => {
    const [name, low, high] = fields[index]!;
    return parseField(part, name, low, high);
  });
  const weekdays = new Set([...sets[4]!].map((day) => day % 7));
  return {
    minutes: sets[0]!,
    hours: sets[1]!,
    days: sets[2]!,
    months: sets[3]!,
    weekdays,
    daysRestricted: parts[2] !== '*',
    weekdaysRestricted: parts[4] !== '*',
  };
}

function parseField(text: string, name: string, low: number, high: number): Set<number> {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!match) throw new WeftServerError('INVALID_ARGUMENT', `"schedule": bad ${name} "${item}"`);
    const from = match[1] === '*' ? low : Number(match[2]);
    const to = match[1] === '*' ? high : match[3] === undefined ? (match[4] ? high : from) : Number(match[3]);
    const step = match[4] === undefined ? 1 : Number(match[4]);
    if (from < low || to > high || from > to || step < 1)
      throw new WeftServerError(
        'INVALID_ARGUMENT',
        `"schedule": ${name} "${item}" is outside ${low}-${high}`,
      );
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

function dayMatches(schedule: CronSchedule, date: Date): boolean {
  const day = schedule.days.has(date.getUTCDate());
  const weekday = schedule.weekdays.has(date.getUTCDay());
  if (schedule.daysRestricted && schedule.weekdaysRestricted) return day || weekday;
  return day && weekday;
}

/** The first time strictly after `after` the schedule runs (UTC, to the minute); within five years. */
export function nextRun(schedule: CronSchedule, after: Date): Date {
  const date = new Date(after.getTime());
  date.setUTCSeconds(0, 0);
  date.setUTCMinutes(date.getUTCMinutes() + 1);
  const limit = after.getTime() + 5 * 366 * 24 * 3_600_000;
  while (date.getTime() <= limit) {
    if (!schedule.months.has(date.getUTCMonth() + 1)) {
      date.setUTCMonth(date.getUTCMonth() + 1, 1);
      date.setUTCHours(0, 0);
    } else if (!dayMatches(schedule, date)) {
      date.setUTCDate(date.getUTCDate() + 1);
      date.setUTCHours(0, 0);
    } else if (!schedule.hours.has(date.getUTCHours())) {
      date.setUTCHours(date.getUTCHours() + 1, 0);
    } else if (!schedule.minutes.has(date.getUTCMinutes())) {
      date.setUTCMinutes(date.getUTCMinutes() + 1);
    } else {
      return date;
    }
  }
  throw new WeftServerError('INVALID_ARGUMENT', '"schedule" never runs (no matching date within five years)');
}
