-- The otel_logs table, as the OpenTelemetry Collector's ClickHouse exporter creates it (issue 28).
--
-- Source: the exporter's own DDL template, opentelemetry-collector-contrib
--   https://github.com/open-telemetry/opentelemetry-collector-contrib/blob/main/exporter/clickhouseexporter/internal/sqltemplates/logs_table.sql
-- in the form it has had since v0.151.0 (pull request #47720, "Upgrade Logs Table"):
--   https://github.com/open-telemetry/opentelemetry-collector-contrib/pull/47720
-- The column names and types below are the exporter's, unchanged: its INSERT names these columns, so a
-- table that keeps them accepts what the collector writes. What differs from the template, and why:
--   * The column COMMENTs are left out (they change nothing the exporter reads or writes).
--   * The indexes are the template's branch for ClickHouse < 26.2 (bloom_filter / tokenbf_v1), which every
--     ClickHouse and chDB accepts; on 26.2 and newer the exporter writes `TYPE text(tokenizer = ...)`
--     full-text indexes instead. Indexes only speed up reads; the queries give the same answers either way.
--   * No TTL clause: the exporter adds one only when its `ttl` option is set (the default, 0, keeps rows).
--   * The database is `otel`, as in the exporter README's example config (scripts/fleet/otelcol.yaml).
-- chDB (the in-process ClickHouse scripts/fleet/load-otlp.py uses) accepts this DDL unchanged: MergeTree, the
-- codecs, the MATERIALIZED columns, the partitioning, ORDER BY and SETTINGS all stay.
--
-- Exporters up to v0.150 created a table with one more column, `TimestampTime DateTime DEFAULT
-- toDateTime(Timestamp)`, ordered by (ServiceName, TimestampTime, Timestamp) and partitioned by
-- toDate(TimestampTime); `EventName` came with pull request #43164 and is optional on tables made before it
-- (the exporter probes for it with DESC TABLE and leaves it out of its INSERT when it is missing). The queries
-- in scripts/fleet/queries/ read only `Timestamp`, `SeverityText` and the attribute maps, so they run unchanged
-- on a table of any of these shapes.

CREATE DATABASE IF NOT EXISTS otel;

CREATE TABLE IF NOT EXISTS otel.otel_logs
(
    `Timestamp` DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    `TraceId` String CODEC(ZSTD(1)),
    `SpanId` String CODEC(ZSTD(1)),
    `TraceFlags` UInt8,
    `SeverityText` LowCardinality(String) CODEC(ZSTD(1)),
    `SeverityNumber` UInt8,
    `ServiceName` LowCardinality(String) CODEC(ZSTD(1)),
    `Body` String CODEC(ZSTD(1)),
    `ResourceSchemaUrl` LowCardinality(String) CODEC(ZSTD(1)),
    `ResourceAttributes` Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    `ScopeSchemaUrl` LowCardinality(String) CODEC(ZSTD(1)),
    `ScopeName` String CODEC(ZSTD(1)),
    `ScopeVersion` LowCardinality(String) CODEC(ZSTD(1)),
    `ScopeAttributes` Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    `LogAttributes` Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    `EventName` String CODEC(ZSTD(1)),
    -- Filled by ClickHouse from ResourceAttributes on insert (cdlog sets none of these keys; they stay empty).
    `__otel_materialized_k8s.cluster.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.cluster.name'] CODEC(ZSTD(1)),
    `__otel_materialized_k8s.container.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.container.name'] CODEC(ZSTD(1)),
    `__otel_materialized_k8s.deployment.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.deployment.name'] CODEC(ZSTD(1)),
    `__otel_materialized_k8s.namespace.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.namespace.name'] CODEC(ZSTD(1)),
    `__otel_materialized_k8s.node.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.node.name'] CODEC(ZSTD(1)),
    `__otel_materialized_k8s.pod.name` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.pod.name'] CODEC(ZSTD(1)),
    `__otel_materialized_k8s.pod.uid` LowCardinality(String) MATERIALIZED ResourceAttributes['k8s.pod.uid'] CODEC(ZSTD(1)),
    `__otel_materialized_deployment.environment.name` LowCardinality(String) MATERIALIZED ResourceAttributes['deployment.environment.name'] CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_key mapKeys(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_value mapValues(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_value mapValues(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_lower_body lower(Body) TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 8
)
ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (toStartOfFiveMinutes(Timestamp), ServiceName, Timestamp)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;
