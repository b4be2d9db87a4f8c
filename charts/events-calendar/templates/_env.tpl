{{/*
Which environment variable reaches which process, and from where. It mirrors the roles column of
libs/config/env.ts, and test/deploy/wiring.test.ts compares the two, so a variable the code reads
cannot go missing here. roles: the processes that read it ("*": all). source: "config" (the
release ConfigMap), "secret" (the release Secret or existingSecret) or "worker" (the worker
group's ConfigMap). optional: the key may be absent from an existingSecret.
*/}}
{{- define "ec.envTable" -}}
PORT: {roles: ["*"], source: config}
HOST: {roles: ["*"], source: config}
SITE_URL: {roles: ["*"], source: config}
SITE_NAME: {roles: ["*"], source: config}
SITE_DESCRIPTION: {roles: ["*"], source: config}
SITE_TIMEZONE: {roles: ["*"], source: config}
EDITION: {roles: ["*"], source: config}
DATA_DIR: {roles: ["*"], source: config}
MONGO_URL: {roles: ["*"], source: secret}
MONGO_DB: {roles: ["*"], source: config}
REDIS_URL: {roles: ["*"], source: secret}
QUEUE_PREFIX: {roles: ["*"], source: config}
CONTENT_SERVICE_URL: {roles: [gateway, worker], source: config}
CALENDAR_SERVICE_URL: {roles: [gateway, worker], source: config}
AGGREGATOR_SERVICE_URL: {roles: [gateway, worker], source: config}
OEMBED_SERVICE_URL: {roles: [gateway, worker], source: config}
SERVICE_SECRET: {roles: [gateway, content, calendar, aggregator, oembed, worker], source: secret}
ADMIN_USER: {roles: [content], source: config}
ADMIN_EMAIL: {roles: [content], source: config}
ADMIN_PASSWORD: {roles: [content], source: secret, optional: true}
ADMIN_APP_PASSWORD: {roles: [content], source: secret, optional: true}
MAX_BODY_BYTES: {roles: ["*"], source: config}
IMPORT_FEED_MAX_BYTES: {roles: [worker], source: config}
IMPORT_MIN_INTERVAL_SECONDS: {roles: [aggregator], source: config}
AUTH_FAILURE_LIMIT: {roles: [gateway], source: config}
AUTH_FAILURE_WINDOW_SECONDS: {roles: [gateway], source: config}
TRUST_PROXY_HOPS: {roles: [gateway], source: config}
HEADERS_TIMEOUT_MS: {roles: ["*"], source: config}
MAX_CONNECTIONS_PER_ADDRESS: {roles: [gateway], source: config}
OUTBOUND_ALLOW_HOSTS: {roles: [oembed, worker, content, calendar], source: config}
GEOCODER_PROVIDER: {roles: [calendar, worker], source: config}
GEOCODER_URL: {roles: [calendar, worker], source: config}
GEOCODER_API_KEY: {roles: [calendar, worker], source: secret, optional: true}
GEOCODER_RATE_PER_SECOND: {roles: [calendar, worker], source: config}
GEOCODER_TIMEOUT_MS: {roles: [calendar, worker], source: config}
WORKER_QUEUES: {roles: [worker], source: worker}
WORKER_CONCURRENCY: {roles: [worker], source: worker}
BATCH_TIMEOUT_MS: {roles: [gateway], source: config}
SHUTDOWN_TIMEOUT_MS: {roles: ["*"], source: config}
LOG_LEVEL: {roles: ["*"], source: config}
{{- end }}

{{/* The env list of one process's container. Call with (dict "root" $ "proc" $proc). */}}
{{- define "ec.env" -}}
{{- $root := .root }}
{{- $proc := .proc }}
{{- $table := include "ec.envTable" $root | fromYaml }}
{{- range $name := keys $table | sortAlpha }}
{{- $var := index $table $name }}
{{- if or (has "*" $var.roles) (has $proc.role $var.roles) }}
- name: {{ $name }}
  valueFrom:
    {{- if eq $var.source "secret" }}
    secretKeyRef:
      name: {{ include "ec.secretName" $root }}
      key: {{ $name }}
      {{- if $var.optional }}
      optional: true
      {{- end }}
    {{- else }}
    configMapKeyRef:
      name: {{ ternary $proc.name (include "ec.fullname" $root) (eq $var.source "worker") }}
      key: {{ $name }}
    {{- end }}
{{- end }}
{{- end }}
{{- with $root.Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- with $proc.spec.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}
