#!/usr/bin/python3
"""
The independent expansion the iCalendar corpus test compares imports with
(test/fixtures/ical-corpus-expected.json).

Reads every .ics file of a corpus folder with Debian's python3-icalendar (parsing, time zones from
pytz and the files' VTIMEZONEs) and expands its series with python3-recurring-ical-events (RRULE,
RDATE, EXDATE on the event's wall clock), over the service's own import window and caps:
occurrences that meet [clock - 31 days, clock + 366 days), at most 500 per series, single events
wherever they lie, STATUS:CANCELLED dropped. RECURRENCE-ID overrides replace the occurrence they name
(the highest SEQUENCE, then the later DTSTAMP, wins between copies).

The clock of a file is its own time: its latest DTSTAMP, else its first series start plus 15 days.

Where the libraries are known to read a file differently from RFC 5545 / 7529 and calendar apps,
the text is corrected before they see it, each correction named in CORRECTIONS below:
- spaces inside a rule's parts (`BYDAY=MO, TU`) are trimmed (calendar apps read such rules);
- an empty or unreadable RRULE leaves the event a single event;
- Windows display-name TZIDs ("(UTC+01:00) Amsterdam, Berlin, ...") name the IANA zone of their city.
UTC series are expanded in UTC even when the calendar has X-WR-TIMEZONE (recurring_ical_events.of
would first move them into that zone, Google's convention; the service keeps RFC 5545's reading).

Usage: /usr/bin/python3 scripts/ical-oracle.py [corpus dir] > test/fixtures/ical-corpus-expected.json
(the corpus defaults to ../shared/ical-corpus).
"""
import datetime
import json
import os
import re
import sys

import icalendar
import pytz
from icalendar.parser import Contentline
from recurring_ical_events import RepeatedEvent

PAST = datetime.timedelta(days=31)
AHEAD = datetime.timedelta(days=366)
CAP = 500
UTC = pytz.utc

CORRECTIONS = {
    "rrule-spaces": "spaces inside a rule's parts are trimmed",
    "rrule-unreadable": "an empty or unreadable RRULE leaves a single event",
    "windows-display-tzid": "a Windows display-name TZID names the IANA zone of its city",
    "unreadable-line": "a line the parser cannot split into name, parameters and value is skipped",
    "vtimezone-tzids": "a VTIMEZONE naming two TZIDs keeps its first",
}

# The North American zones of Windows display names ("(UTC-05:00) Eastern Time (US & Canada)").
US_TIMES = {
    "eastern": "America/New_York",
    "central": "America/Chicago",
    "mountain": "America/Denver",
    "pacific": "America/Los_Angeles",
}
CITIES = {z.rsplit("/", 1)[-1].replace("_", " ").lower(): z for z in pytz.all_timezones if "/" in z}


def display_zone(name):
    """The IANA zone of a Windows display name: its North American zone, else its first known city."""
    rest = re.sub(r"^\((?:UTC|GMT)[^)]*\)\s*", "", name).strip()
    m = re.match(r"^(\w+) Time \(US (?:&|and) Canada\)$", rest, re.I)
    if m and m.group(1).lower() in US_TIMES:
        return US_TIMES[m.group(1).lower()]
    for city in rest.split(","):
        if city.strip().lower() in CITIES:
            return CITIES[city.strip().lower()]
    return None


def unfold(text):
    return re.sub(r"\r?\n[ \t]", "", text)


def correct(text, used):
    """The text with the corrections applied; `used` collects the names of those that changed it."""
    lines = unfold(text).splitlines()
    out = []
    in_calendar = False
    in_tz = False
    tz_named = False
    for line in lines:
        if not line.strip():
            continue
        try:
            Contentline(line).parts()
        except Exception:
            used.add("unreadable-line")
            continue
        if re.match(r"^BEGIN:VTIMEZONE\s*$", line, re.I):
            in_tz, tz_named = True, False
        elif re.match(r"^END:VTIMEZONE\s*$", line, re.I):
            in_tz = False
        elif in_tz and line.upper().startswith("TZID"):
            if tz_named:
                used.add("vtimezone-tzids")
                continue
            tz_named = True
        if re.match(r"^BEGIN:VCALENDAR\s*$", line, re.I):
            in_calendar = True
        upper = line.upper()
        if upper.startswith("RRULE:") or upper.startswith("RRULE;"):
            head, _, value = line.partition(":")
            trimmed = re.sub(r"\s+", "", value)
            if trimmed != value:
                used.add("rrule-spaces")
            if not re.match(r"^(?:[A-Z]+=[^;]*)(?:;[A-Z]+=[^;]*)*$", trimmed, re.I) or "FREQ=" not in trimmed.upper():
                used.add("rrule-unreadable")
                continue
            line = head + ":" + trimmed
        m = re.search(r'TZID="(\((?:UTC|GMT)[^"]*)"', line)
        if m and display_zone(m.group(1)):
            used.add("windows-display-tzid")
            line = line[: m.start()] + "TZID=" + display_zone(m.group(1)) + line[m.end():]
        out.append(line)
        if re.match(r"^END:VCALENDAR\s*$", line, re.I) and in_calendar:
            break
    return "\r\n".join(out) + "\r\n"


def zone_of_calendar(cal):
    name = cal.get("X-WR-TIMEZONE")
    if name:
        try:
            return pytz.timezone(str(name).strip())
        except pytz.UnknownTimeZoneError:
            pass
    return UTC


def instant(value, zone):
    """A date, naive or aware date-time as an aware UTC date-time (dates and naive times in `zone`)."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return zone.localize(value).astimezone(UTC)
        return value.astimezone(UTC)
    return zone.localize(datetime.datetime(value.year, value.month, value.day)).astimezone(UTC)


def is_date(value):
    return isinstance(value, datetime.date) and not isinstance(value, datetime.datetime)


def text_of(v):
    return "" if v is None else str(v)


def key_of(value, zone):
    """How an occurrence is named for overrides: its date (all-day) or its instant."""
    if is_date(value):
        return value.isoformat()
    return instant(value, zone).strftime("%Y-%m-%dT%H:%M:%SZ")


def meets(start, end, lo, hi):
    return start < hi and (end > lo or (end <= start and start >= lo))


def out_event(ev, start, end, zone):
    title = text_of(ev.get("SUMMARY")).strip()
    if is_date(start):
        s, e = start.isoformat(), (end if is_date(end) else end.date()).isoformat()
    else:
        s = instant(start, zone).strftime("%Y-%m-%dT%H:%M:%SZ")
        e = instant(end, zone).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"title": title, "start": s, "end": e}


def span(ev):
    """The start and end of a component as it stands (DTEND, DURATION, or the RFC's defaults)."""
    start = ev.get("DTSTART").dt
    if ev.get("DTEND") is not None:
        end = ev.get("DTEND").dt
        if is_date(start) and not is_date(end):
            end = end.date()
    elif ev.get("DURATION") is not None:
        end = start + ev.get("DURATION").dt
    else:
        end = start + datetime.timedelta(days=1) if is_date(start) else start
    if not is_date(start) and is_date(end):
        end = datetime.datetime(end.year, end.month, end.day, tzinfo=getattr(start, "tzinfo", None))
        if end.tzinfo is not None and hasattr(end.tzinfo, "localize"):
            end = end.tzinfo.localize(end.replace(tzinfo=None))
    if is_date(start) and end <= start:
        # An all-day event whose end is not after its start is one day long, as calendar apps show it.
        end = start + datetime.timedelta(days=1)
    if instant_cmp(end, start) < 0:
        end = start
    return start, end


def instant_cmp(a, b):
    ia, ib = instant(a, UTC), instant(b, UTC)
    return (ia > ib) - (ia < ib)


def newer(a, b):
    """Whether b replaces a: the higher SEQUENCE, then the later DTSTAMP, then the later in the file."""
    if a is None:
        return True
    sa, sb = int(a.get("SEQUENCE", 0) or 0), int(b.get("SEQUENCE", 0) or 0)
    if sa != sb:
        return sb > sa
    da, db = a.get("DTSTAMP"), b.get("DTSTAMP")
    if da is not None and db is not None and da.dt != db.dt:
        return instant(db.dt, UTC) > instant(da.dt, UTC)
    return True


def expand_series(master, zone, lo, hi):
    """The occurrences (start, end) of a master that meet [lo, hi), in time order."""
    rules = master.get("RRULE")
    rules = rules if isinstance(rules, list) else ([rules] if rules is not None else [])
    parts = []
    for rule in rules or [None]:
        comp = master.copy()
        for sub in master.subcomponents:
            comp.add_component(sub)
        if "RRULE" in comp:
            del comp["RRULE"]
        if rule is not None:
            comp.add("RRULE", rule)
        parts.append(RepeatedEvent(comp))
    seen = {}
    for rep in parts:
        tz = rep.tzinfo
        local = lambda d: d.astimezone(tz) if tz is not None else d.astimezone(zone).replace(tzinfo=None)
        for r in rep.within_days(local(lo - datetime.timedelta(days=2)), local(hi + datetime.timedelta(days=2))):
            s, e = instant(r.start, zone), instant(r.stop, zone)
            if meets(s, e, lo, hi):
                seen.setdefault(key_of(r.start, zone), (r.start, r.stop))
    return [seen[k] for k in sorted(seen, key=lambda k: instant_of_key(k, zone))]


def instant_of_key(k, zone):
    if "T" in k:
        return datetime.datetime.strptime(k, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return instant(datetime.date.fromisoformat(k), zone)


def clock_of(cal, zone):
    stamps = [instant(ev.get("DTSTAMP").dt, UTC) for ev in cal.walk("VEVENT") if ev.get("DTSTAMP") is not None]
    if stamps:
        return max(stamps)
    starts = [instant(ev.get("DTSTART").dt, zone) for ev in cal.walk("VEVENT") if (ev.get("RRULE") is not None or ev.get("RDATE") is not None) and ev.get("DTSTART") is not None]
    if starts:
        return min(starts) + datetime.timedelta(days=15)
    return datetime.datetime(2020, 1, 1, tzinfo=UTC)


def readable(ev):
    try:
        return ev.get("DTSTART") is not None and span(ev) is not None
    except Exception:
        return False


def expect(text):
    used = set()
    cal = icalendar.Calendar.from_ical(correct(text, used))
    zone = zone_of_calendar(cal)
    clock = clock_of(cal, zone)
    lo, hi = clock - PAST, clock + AHEAD
    groups = {}
    order = []
    for ev in cal.walk("VEVENT"):
        if not readable(ev):
            continue
        uid = text_of(ev.get("UID")).strip() or None
        gk = uid if uid is not None else ("", text_of(ev.get("SUMMARY")), text_of(ev.get("DTSTART").to_ical()))
        if gk not in groups:
            groups[gk] = {"uid": uid, "masters": [], "overrides": {}}
            order.append(gk)
        g = groups[gk]
        rid = ev.get("RECURRENCE-ID")
        if rid is not None:
            k = key_of(rid.dt, zone)
            if newer(g["overrides"].get(k), ev):
                g["overrides"][k] = ev
        else:
            g["masters"].append(ev)
    events = []
    for gk in order:
        g = groups[gk]
        uid = g["uid"]
        emitted = []
        masters = kept_masters(g["masters"])
        overrides = g["overrides"]
        first = next((m for m in masters if is_series(m)), masters[0] if masters else None)
        for m in masters:
            own = overrides if m is first else {}
            if is_series(m):
                emitted += series_events(m, own, zone, lo, hi)
            else:
                k = key_of(m.get("DTSTART").dt, zone)
                o = own.get(k)
                emitted.append((o or m, *span(o or m)))
        if first is None or not is_series(first):
            # Overrides without their series (or of a single event's other instants) are events of their own.
            taken = key_of(first.get("DTSTART").dt, zone) if first is not None else None
            for k, o in overrides.items():
                if k != taken:
                    emitted.append((o, *span(o)))
        for ev, s, e in emitted:
            if cancelled(ev):
                continue
            item = out_event(ev, s, e, zone)
            # [UID, start, end], and the title for events without a UID (they are keyed by it).
            events.append([uid, item["start"], item["end"]] + ([] if uid is not None else [item["title"]]))
    return {
        "clock": clock.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "corrections": sorted(used),
        "events": events,
    }


def is_series(ev):
    return ev.get("RRULE") is not None or ev.get("RDATE") is not None


def version(ev):
    stamp = ev.get("DTSTAMP")
    return (int(ev.get("SEQUENCE", 0) or 0), instant(stamp.dt, UTC) if stamp is not None else None)


def kept_masters(masters):
    """
    Copies of one UID without RECURRENCE-ID: versions of one event (another SEQUENCE or DTSTAMP) leave
    the newest; copies of one version that differ (another start or title) are different events, all kept.
    """
    if not masters:
        return []
    newest = masters[0]
    for m in masters[1:]:
        if newer(newest, m):
            newest = m
    kept = [newest]
    for m in masters:
        if m is newest or version(m) != version(newest):
            continue
        look = (m.get("DTSTART").to_ical(), text_of(m.get("SUMMARY")))
        if all(look != (k.get("DTSTART").to_ical(), text_of(k.get("SUMMARY"))) for k in kept):
            kept.append(m)
    return kept


def series_events(master, overrides, zone, lo, hi):
    """The events of a series: its occurrences in the window (at most CAP), overrides in their place."""
    if is_date(master.get("DTSTART").dt):
        # An all-day series: overrides are matched by the date of their RECURRENCE-ID as written.
        overrides = {rid_date(o, zone): o for o in overrides.values()}
    emitted = []
    used = set()
    for s, e in expand_series(master, zone, lo, hi)[:CAP]:
        k = key_of(s, zone)
        o = overrides.get(k)
        if o is not None:
            used.add(k)
            os_, oe = span(o)
            if meets(instant(os_, zone), instant(oe, zone), lo, hi):
                emitted.append((o, os_, oe))
        else:
            emitted.append((master, s, e))
    for k, o in overrides.items():
        if k in used or len(emitted) >= CAP:
            continue
        os_, oe = span(o)
        if meets(instant(os_, zone), instant(oe, zone), lo, hi):
            emitted.append((o, os_, oe))
    return emitted


def rid_date(o, zone):
    rid = o.get("RECURRENCE-ID").dt
    if isinstance(rid, datetime.datetime):
        if rid.tzinfo is not None and rid.utcoffset() == datetime.timedelta(0) and str(rid.tzinfo) in ("UTC", "UTC+00:00"):
            return rid.astimezone(zone).date().isoformat()
        return rid.date().isoformat()
    return rid.isoformat()


def cancelled(ev):
    return text_of(ev.get("STATUS")).strip().upper() == "CANCELLED"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "shared", "ical-corpus")
    files = {}
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".ics"):
            continue
        with open(os.path.join(corpus, name), encoding="utf-8", errors="replace") as f:
            text = f.read()
        try:
            files[name] = expect(text)
        except Exception as e:  # a file the oracle cannot read is listed, not guessed
            files[name] = {"error": "%s: %s" % (type(e).__name__, e)}
    json.dump(
        {
            "oracle": "python3-icalendar %s, python3-recurring-ical-events" % icalendar.__version__,
            "window": {"pastDays": 31, "aheadDays": 366, "perSeries": CAP},
            "corrections": CORRECTIONS,
            "events": "[UID, start, end, title when the UID is missing]: instants in UTC, dates for all-day events (end exclusive)",
            "files": files,
        },
        sys.stdout,
        indent=None,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
