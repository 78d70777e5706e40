-- Which problems occur in which app version and OS, how often, in how many tickets, for how many users,
-- and when were they first and last seen?
--
-- One row per (fingerprint, app version, OS): the same groups, figures and order as
-- `cdlog aggregate --format json` prints for the same OTLP files.
--   appVersion  resource `service.version`, NULL when unknown
--   os          resource `os.name` + ' ' + `os.version` (either alone when only one is known), NULL when neither
--   findings    findings in the group
--   tickets     distinct resource `cdlog.ticket`; a finding without one counts its source file as the ticket
--   users       distinct non-empty resource `enduser.id`
--   firstSeen / lastSeen  earliest / latest finding time, DateTime64(9) in UTC, NULL when no finding of the
--     group has a time (a finding without a timestamp is stored with Timestamp 1970-01-01 00:00:00 and is
--     left out here); cdlog aggregate prints the same instants as ISO 8601 text
-- Sorted by findings (most first), then fingerprint, app version and OS (NULL first).
SELECT
    LogAttributes['cdlog.fingerprint'] AS fingerprint,
    any(LogAttributes['cdlog.rule']) AS rule,
    any(LogAttributes['cdlog.category']) AS category,
    any(SeverityText) AS severity,
    any(LogAttributes['cdlog.title']) AS title,
    nullIf(ResourceAttributes['service.version'], '') AS appVersion,
    multiIf(
        ResourceAttributes['os.name'] != '' AND ResourceAttributes['os.version'] != '',
            concat(ResourceAttributes['os.name'], ' ', ResourceAttributes['os.version']),
        ResourceAttributes['os.name'] != '', ResourceAttributes['os.name'],
        ResourceAttributes['os.version'] != '', ResourceAttributes['os.version'],
        NULL) AS os,
    count() AS findings,
    uniqExact(if(ResourceAttributes['cdlog.ticket'] != '',
                 ResourceAttributes['cdlog.ticket'],
                 concat('source:', LogAttributes['cdlog.source']))) AS tickets,
    uniqExactIf(ResourceAttributes['enduser.id'], ResourceAttributes['enduser.id'] != '') AS users,
    if(countIf(Timestamp > 0) = 0, NULL,
       toTimeZone(minIf(Timestamp, Timestamp > 0), 'UTC')) AS firstSeen,
    if(countIf(Timestamp > 0) = 0, NULL,
       toTimeZone(maxIf(Timestamp, Timestamp > 0), 'UTC')) AS lastSeen
FROM otel.otel_logs
WHERE LogAttributes['cdlog.fingerprint'] != ''
GROUP BY fingerprint, appVersion, os
ORDER BY findings DESC, fingerprint ASC, appVersion ASC NULLS FIRST, os ASC NULLS FIRST
