-- How many users does each problem affect, across all app versions and OSes?
--
-- One row per fingerprint, most users first (then most tickets, then fingerprint):
--   users     distinct non-empty resource `enduser.id` (the hashed user id cdlog was given with --resource)
--   tickets   distinct resource `cdlog.ticket` (a finding without one counts its source file as the ticket)
--   findings  all findings of the fingerprint
--   versions  the app versions it was seen in (resource `service.version`), sorted
--   firstSeen / lastSeen  earliest / latest finding time, DateTime64(9) in UTC (NULL when none has a time)
SELECT
    LogAttributes['cdlog.fingerprint'] AS fingerprint,
    any(LogAttributes['cdlog.rule']) AS rule,
    any(SeverityText) AS severity,
    any(LogAttributes['cdlog.title']) AS title,
    uniqExactIf(ResourceAttributes['enduser.id'], ResourceAttributes['enduser.id'] != '') AS users,
    uniqExact(if(ResourceAttributes['cdlog.ticket'] != '',
                 ResourceAttributes['cdlog.ticket'],
                 concat('source:', LogAttributes['cdlog.source']))) AS tickets,
    count() AS findings,
    arraySort(groupUniqArrayIf(ResourceAttributes['service.version'],
                               ResourceAttributes['service.version'] != '')) AS versions,
    if(countIf(Timestamp > 0) = 0, NULL,
       toTimeZone(minIf(Timestamp, Timestamp > 0), 'UTC')) AS firstSeen,
    if(countIf(Timestamp > 0) = 0, NULL,
       toTimeZone(maxIf(Timestamp, Timestamp > 0), 'UTC')) AS lastSeen
FROM otel.otel_logs
WHERE LogAttributes['cdlog.fingerprint'] != ''
GROUP BY fingerprint
ORDER BY users DESC, tickets DESC, fingerprint ASC
