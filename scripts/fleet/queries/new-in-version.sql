-- Which problems are new in app version {version:String}: present in that version and absent from every
-- earlier one? The 50 with the most findings.
--
-- Run with the version as a query parameter:
--   clickhouse client --param_version=4.3 --queries-file new-in-version.sql
--   scripts/fleet/load-otlp.py --db DIR --query scripts/fleet/queries/new-in-version.sql --param version=4.3
-- Versions are compared number by number (4.10 is later than 4.9; 4.2.1 later than 4.2); a part that is not
-- a number counts as 0. Findings without an app version are not "earlier" than any version.
--   findings / tickets / users  in version {version:String} only
--   firstSeen                   the earliest finding time in that version, DateTime64(9) in UTC
SELECT
    LogAttributes['cdlog.fingerprint'] AS fingerprint,
    any(LogAttributes['cdlog.rule']) AS rule,
    any(SeverityText) AS severity,
    any(LogAttributes['cdlog.title']) AS title,
    count() AS findings,
    uniqExact(if(ResourceAttributes['cdlog.ticket'] != '',
                 ResourceAttributes['cdlog.ticket'],
                 concat('source:', LogAttributes['cdlog.source']))) AS tickets,
    uniqExactIf(ResourceAttributes['enduser.id'], ResourceAttributes['enduser.id'] != '') AS users,
    if(countIf(Timestamp > 0) = 0, NULL,
       toTimeZone(minIf(Timestamp, Timestamp > 0), 'UTC')) AS firstSeen
FROM otel.otel_logs
WHERE LogAttributes['cdlog.fingerprint'] != ''
  AND ResourceAttributes['service.version'] = {version:String}
  AND LogAttributes['cdlog.fingerprint'] NOT IN (
      SELECT LogAttributes['cdlog.fingerprint']
      FROM otel.otel_logs
      WHERE LogAttributes['cdlog.fingerprint'] != ''
        AND ResourceAttributes['service.version'] != ''
        AND arrayMap(x -> toUInt32OrZero(x), splitByChar('.', ResourceAttributes['service.version']))
            < arrayMap(x -> toUInt32OrZero(x), splitByChar('.', {version:String})))
GROUP BY fingerprint
ORDER BY findings DESC, tickets DESC, fingerprint ASC
LIMIT 50
