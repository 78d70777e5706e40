-- How does each problem trend from day to day?
--
-- One row per (fingerprint, UTC day) with at least one finding that day: findings, tickets and users that
-- day. Findings without a timestamp (stored as 1970-01-01) have no day and are left out. Sorted by
-- fingerprint, then day. To follow one problem, add  AND LogAttributes['cdlog.fingerprint'] = '…'  to WHERE.
SELECT
    LogAttributes['cdlog.fingerprint'] AS fingerprint,
    toDate(Timestamp, 'UTC') AS day,
    any(LogAttributes['cdlog.rule']) AS rule,
    count() AS findings,
    uniqExact(if(ResourceAttributes['cdlog.ticket'] != '',
                 ResourceAttributes['cdlog.ticket'],
                 concat('source:', LogAttributes['cdlog.source']))) AS tickets,
    uniqExactIf(ResourceAttributes['enduser.id'], ResourceAttributes['enduser.id'] != '') AS users
FROM otel.otel_logs
WHERE LogAttributes['cdlog.fingerprint'] != ''
  AND Timestamp > 0
GROUP BY fingerprint, day
ORDER BY fingerprint ASC, day ASC
