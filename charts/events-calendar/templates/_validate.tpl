{{/* Checks across values that values.schema.json cannot express; stops the render with a clear message. */}}
{{- define "ec.validate" -}}
{{- /* Every process of the release is a cluster process: each needs MongoDB, and the gateway and the
       workers need Redis (libs/config/env.ts requireForRole). Only a Secret the chart creates can be
       checked here; an existingSecret must hold MONGO_URL and REDIS_URL itself. */}}
{{- if not .Values.existingSecret }}
{{- if and (not .Values.mongo.url) (not .Values.mongo.internal.enabled) }}
{{- fail "MongoDB is not configured: set mongo.url or existingSecret (a Secret holding MONGO_URL); for a trial only, mongo.internal.enabled=true runs MongoDB inside the release" }}
{{- end }}
{{- if and (not .Values.redis.url) (not .Values.redis.internal.enabled) }}
{{- fail "Redis is not configured: set redis.url or existingSecret (a Secret holding REDIS_URL); for a trial only, redis.internal.enabled=true runs Redis inside the release" }}
{{- end }}
{{- /* The example secrets shown in the documentation, which the application refuses at start-up
       (EXAMPLE_SECRETS in libs/config/env.ts; test/deploy/chart.test.ts keeps the two lists equal).
       Application passwords compare without spaces and case. */}}
{{- $examples := include "ec.exampleSecrets" . | fromYaml }}
{{- range $key, $value := dict "serviceSecret" .Values.serviceSecret "admin.password" .Values.admin.password }}
{{- $var := ternary "SERVICE_SECRET" "ADMIN_PASSWORD" (eq $key "serviceSecret") }}
{{- if and $value (has $value (index $examples $var)) }}
{{- fail (printf "%s is the example value shown in the documentation, which anyone can read: set one of your own (or leave it empty to have one generated)" $key) }}
{{- end }}
{{- end }}
{{- $app := .Values.admin.appPassword | replace " " "" | lower }}
{{- if and $app (has $app (index $examples "ADMIN_APP_PASSWORD" | join "," | lower | splitList ",")) }}
{{- fail "admin.appPassword is the example value shown in the documentation, which anyone can read: set one of your own (or leave it empty to have one generated)" }}
{{- end }}
{{- end }}
{{- /* The gateway's operations endpoints share its port: no Ingress path may route them. */}}
{{- if .Values.ingress.enabled }}
{{- range $h := .Values.ingress.hosts }}
{{- range $p := ($h.paths | default list) }}
{{- $ops := false }}
{{- range $op := list "/metrics" "/healthz" "/readyz" }}
{{- if or (eq $p.path $op) (hasPrefix (printf "%s/" $op) $p.path) }}{{ $ops = true }}{{ end }}
{{- end }}
{{- if or $ops (and (eq $p.path "/") (ne $p.pathType "Exact")) }}
{{- fail (printf "ingress.hosts (%s): the path %s (%s) would make the gateway's /metrics, /healthz and /readyz public; leave the host's paths out to route the public ones (/ exactly, /index.php, /events, /cms-content, /cms-admin), or list paths under those" $h.host $p.path $p.pathType) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- $consumed := list }}
{{- range $group, $w := .Values.workers }}
{{- if $w.enabled }}
{{- $consumed = concat $consumed $w.queues }}
{{- end }}
{{- end }}
{{- range $queue := list "batch" "oembed" "import" "geocode" }}
{{- if not (has $queue $consumed) }}
{{- fail (printf "workers: no enabled worker group consumes the %q queue; its jobs would never run (add it to a group's queues)" $queue) }}
{{- end }}
{{- end }}
{{- $pdbs := dict "gateway" .Values.gateway.pdb }}
{{- range $svc, $s := .Values.services }}{{ $_ := set $pdbs (printf "services.%s" $svc) $s.pdb }}{{ end }}
{{- range $group, $w := .Values.workers }}{{ $_ := set $pdbs (printf "workers.%s" $group) $w.pdb }}{{ end }}
{{- range $where, $pdb := $pdbs }}
{{- if and $pdb.enabled (ne (toString $pdb.minAvailable) "") (ne (toString $pdb.maxUnavailable) "") }}
{{- fail (printf "%s.pdb: set minAvailable or maxUnavailable, not both" $where) }}
{{- end }}
{{- if and $pdb.enabled (eq (toString $pdb.minAvailable) "") (eq (toString $pdb.maxUnavailable) "") }}
{{- fail (printf "%s.pdb: set minAvailable or maxUnavailable" $where) }}
{{- end }}
{{- end }}
{{- end }}

{{/* Example secret values from the documentation, per variable (see ec.validate). */}}
{{- define "ec.exampleSecrets" -}}
SERVICE_SECRET:
  - replace-with-64-random-hex-characters-0000000000000000000000000000
ADMIN_PASSWORD:
  - replace-me-with-a-long-password
ADMIN_APP_PASSWORD:
  - example0example0example0
  - replacemeReplacemeRplcme
{{- end }}
